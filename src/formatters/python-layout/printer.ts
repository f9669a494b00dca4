// Prints the layout IR at a line width, following ruff's printer: a group prints flat when
// its content and the rest of the line fit, best-fitting picks the first variant that fits,
// best-fit parentheses appear only when they make the content fit. Indents are four spaces.

import {
  BEST_FITTING,
  BFP,
  CCONTENT,
  CGROUP,
  type Elem,
  EMPTY,
  END,
  ENTRY,
  EXPANDED,
  FITS_EXPANDED,
  FLAT,
  GROUP,
  HARD,
  INDENT,
  INDENT_IF_BREAKS,
  LINE,
  NONE,
  type PrintMode,
  SOFT_OR_SPACE,
  SPACE,
  TEXT,
  elem,
  lineElem,
  textElem,
} from "./ir.js";
import {
  ALL_LINES,
  type Args,
  FIRST_LINE,
  INDENT_WIDTH,
  indentOf,
  indented,
  makeArgs,
  modeOf,
  Queue,
  skipContent,
  Stack,
  withMeasure,
  withMode,
} from "./frames.js";
import { fits, type GroupModes } from "./measure.js";
import { textWidth } from "./width.js";

export { LINE_WIDTH } from "./frames.js";

/** What best-fit parentheses add around their content when they expand. */
const OPEN_PAREN = [textElem("(", 1), elem(INDENT), lineElem(HARD)];
const CLOSE_PAREN = [lineElem(HARD), textElem(")", 1)];

/** Prints `doc` with every line starting at indent level `indent`. */
export function printDoc(doc: readonly Elem[], indent: number): string {
  return new Printer(indent).print(doc);
}

class Printer implements GroupModes {
  private parts: string[] = [];
  lineWidth = 0;
  private lineHasContent = false;
  pendingIndent: number;
  private measuredGroupFits = false;
  private groupModes: PrintMode[] = [];

  constructor(private readonly baseIndent: number) {
    this.pendingIndent = baseIndent;
  }

  print(doc: readonly Elem[]): string {
    const stack = new Stack([-1], [makeArgs(this.baseIndent, EXPANDED, FIRST_LINE)]);
    const queue = new Queue([doc], [0]);
    for (let e = queue.pop(); e; e = queue.pop()) this.printElement(stack, queue, e);
    return this.parts.join("");
  }

  /** The mode a group with `id` was printed (or measured) in; `fallback` for id 0 (the enclosing group). */
  groupMode(id: number, fallback: PrintMode): PrintMode {
    if (id === 0) return fallback;
    const mode = this.groupModes[id];
    if (mode === undefined) throw new Error(`python formatter bug: group ${id} referenced before it was printed`);
    return mode;
  }
  setGroupMode(id: number, mode: PrintMode): void {
    this.groupModes[id] = mode;
  }

  private printElement(stack: Stack, queue: Queue, e: Elem): void {
    const args = stack.top();
    switch (e.kind) {
      case SPACE:
        return this.printText(" ", 1);
      case TEXT:
        return this.printText(e.text, e.width);
      case LINE:
        if (modeOf(args) === FLAT && e.width <= SOFT_OR_SPACE) {
          if (e.width === SOFT_OR_SPACE) this.printText(" ", 1);
          return;
        }
        if (this.lineHasContent) this.newline();
        if (e.width === EMPTY) this.newline();
        this.pendingIndent = indentOf(args);
        return;
      case BEST_FITTING:
        return this.printBestFitting(e, queue, stack);
      case GROUP: {
        const mode = e.mode !== 0 ? EXPANDED : this.flatGroupMode(GROUP, e.id, args, queue, stack);
        if (e.id) this.groupModes[e.id] = mode;
        return stack.push(GROUP, withMode(args, mode));
      }
      case BFP:
        return this.printBestFitParenthesize(e.id, args, queue, stack);
      case BFP + END:
        if (modeOf(args) === EXPANDED) {
          stack.pop(INDENT);
          queue.extend(CLOSE_PAREN);
        }
        stack.pop(BFP);
        return;
      case CGROUP:
        if (this.groupMode(e.id, modeOf(args)) === e.condition) {
          const mode = e.mode !== 0 ? EXPANDED : this.flatGroupMode(CGROUP, 0, args, queue, stack);
          stack.push(CGROUP, withMode(args, mode));
        } else stack.push(CGROUP, args);
        return;
      case CCONTENT:
        if (this.groupMode(e.id, modeOf(args)) === e.mode) stack.push(CCONTENT, args);
        else skipContent(queue, CCONTENT);
        return;
      case INDENT:
        return stack.push(INDENT, indented(args));
      case INDENT_IF_BREAKS:
        return stack.push(INDENT_IF_BREAKS, this.groupMode(e.id, modeOf(args)) === EXPANDED ? indented(args) : args);
      case FITS_EXPANDED:
        if (e.mode === NONE || this.groupMode(e.id, modeOf(args)) === e.mode) this.measuredGroupFits = false;
        return stack.push(FITS_EXPANDED, args);
      case ENTRY:
        return stack.push(ENTRY, args);
      default:
        if (e.kind >= END) stack.pop(e.kind - END);
    }
  }

  private printBestFitParenthesize(id: number, args: Args, queue: Queue, stack: Stack): void {
    let mode: PrintMode;
    if (this.flatGroupMode(BFP, id, args, queue, stack) === FLAT) mode = FLAT;
    else {
      // Parenthesize only when the parenthesized content fits; otherwise prefer no parentheses.
      if (id) this.groupModes[id] = EXPANDED;
      stack.push(BFP, withMeasure(args, ALL_LINES));
      queue.extend(OPEN_PAREN);
      const fitsExpanded = this.fits(queue, stack);
      queue.popSlice();
      stack.pop(BFP);
      mode = fitsExpanded ? EXPANDED : FLAT;
    }
    if (id) this.groupModes[id] = mode;
    if (mode === EXPANDED) queue.extend(OPEN_PAREN);
    stack.push(BFP, withMode(args, mode));
  }

  private flatGroupMode(kind: number, id: number, args: Args, queue: Queue, stack: Stack): PrintMode {
    if (modeOf(args) === FLAT && this.measuredGroupFits) return FLAT;
    this.measuredGroupFits = true;
    if (id) this.groupModes[id] = FLAT;
    stack.push(kind, withMode(args, FLAT));
    const fits = this.fits(queue, stack);
    stack.pop(kind);
    return fits ? FLAT : EXPANDED;
  }

  private printBestFitting(e: Elem, queue: Queue, stack: Stack): void {
    const args = stack.top();
    const variants = e.variants!;
    if (modeOf(args) === FLAT && this.measuredGroupFits) {
      queue.extend(variants[0]);
      return this.printEntry(queue, stack, args);
    }
    this.measuredGroupFits = true;
    for (let index = 0; index < variants.length - 1; index++) {
      const variant = variants[index];
      queue.extend(variant, 1);
      stack.push(ENTRY, withMeasure(withMode(args, FLAT), e.width === 1 ? ALL_LINES : FIRST_LINE));
      const fits = this.fits(queue, stack);
      stack.pop(ENTRY);
      queue.popSlice();
      if (fits) {
        queue.extend(variant);
        return this.printEntry(queue, stack, withMode(args, FLAT));
      }
    }
    queue.extend(variants[variants.length - 1]);
    this.printEntry(queue, stack, withMode(args, EXPANDED));
  }

  private printEntry(queue: Queue, stack: Stack, args: Args): void {
    if (queue.pop()?.kind !== ENTRY) throw new Error("python formatter bug: best-fitting variant without entry tag");
    stack.push(ENTRY, args);
    let depth = 1;
    for (let e = queue.pop(); e; e = queue.pop()) {
      if (e.kind === ENTRY) depth++;
      else if (e.kind === ENTRY + END && --depth === 0) {
        stack.pop(ENTRY);
        return;
      }
      this.printElement(stack, queue, e);
    }
    throw new Error("python formatter bug: best-fitting variant without end tag");
  }

  private printText(text: string, width: number): void {
    if (this.pendingIndent > 0) {
      this.parts.push(" ".repeat(this.pendingIndent * INDENT_WIDTH));
      this.lineWidth += this.pendingIndent * INDENT_WIDTH;
      this.pendingIndent = 0;
    }
    if (width >= 0) {
      this.parts.push(text);
      this.lineWidth += width;
      this.lineHasContent = true;
      return;
    }
    const lines = text.split("\n");
    this.parts.push(lines[0]);
    for (const line of lines.slice(1)) {
      this.newline();
      this.parts.push(line);
      this.lineWidth = textWidth(line);
    }
    this.lineHasContent = lines[lines.length - 1].length > 0;
  }

  private newline(): void {
    this.parts.push("\n");
    this.lineWidth = 0;
    this.lineHasContent = false;
    this.measuredGroupFits = false;
  }

  private fits(queue: Queue, stack: Stack): boolean {
    return fits(this, queue, stack, this.pendingIndent, this.lineWidth);
  }
}
