// Prints the layout IR at a line width, following ruff's printer: a group prints flat when
// its content and the rest of the line fit, best-fitting picks the first variant that fits,
// and `fits` measures ahead without consuming. Indents are four spaces.

import {
  BEST_FITTING,
  BFP,
  CCONTENT,
  CGROUP,
  type Elem,
  END,
  ENTRY,
  EXPANDED,
  FITS_EXPANDED,
  FLAT,
  GROUP,
  INDENT,
  INDENT_IF_BREAKS,
  LINE,
  NONE,
  type PrintMode,
  SOFT,
  SOFT_OR_SPACE,
  SPACE,
  TEXT,
  EMPTY,
  HARD,
  elem,
  lineElem,
  textElem,
} from "./ir.js";
import { textWidth } from "./width.js";

export const LINE_WIDTH = 88;
const INDENT_WIDTH = 4;

/** How `fits` measures: up to the first line break, every line, or every line ignoring overflow. */
const FIRST_LINE = 0;
const ALL_LINES = 1;
const ALLOW_OVERFLOW = 2;

/**
 * The state a tag gives its content (ruff's `PrintElementArgs`), packed into one number so that
 * pushing a frame allocates nothing: bit 0 the print mode, bits 1-2 the measure mode, the rest
 * the indent level.
 */
type Args = number;
const makeArgs = (indent: number, mode: PrintMode, measure: number): Args => (indent << 3) | (measure << 1) | mode;
const modeOf = (args: Args): PrintMode => (args & 1) as PrintMode;
const measureOf = (args: Args): number => (args >> 1) & 3;
const indentOf = (args: Args): number => args >> 3;
const withMode = (args: Args, mode: PrintMode): Args => (args & ~1) | mode;
const withMeasure = (args: Args, measure: number): Args => (args & ~6) | (measure << 1);
const indented = (args: Args): Args => args + 8;

const YES = 0;
const NO = 1;
const MAYBE = 2;

/** What best-fit parentheses add around their content when they expand. */
const OPEN_PAREN = [textElem("(", 1), elem(INDENT), lineElem(HARD)];
const CLOSE_PAREN = [lineElem(HARD), textElem(")", 1)];

/** A stack of slices being read front to back (ruff's print queue), as parallel arrays. */
class Queue {
  constructor(
    private readonly arrs: (readonly Elem[])[],
    private readonly positions: number[],
  ) {}
  pop(): Elem | undefined {
    const { arrs, positions } = this;
    while (arrs.length > 0) {
      const last = arrs.length - 1;
      const arr = arrs[last];
      const position = positions[last];
      if (position < arr.length) {
        positions[last] = position + 1;
        return arr[position];
      }
      arrs.pop();
      positions.pop();
    }
    return undefined;
  }
  extend(arr: readonly Elem[], start = 0): void {
    this.arrs.push(arr);
    this.positions.push(start);
  }
  popSlice(): void {
    this.arrs.pop();
    this.positions.pop();
  }
  /** Skips everything up to and including the end tag matching an already consumed start tag of `kind`. */
  skipContent(kind: number): void {
    let depth = 1;
    for (let e = this.pop(); e; e = this.pop()) {
      if (e.kind === kind) depth++;
      else if (e.kind === kind + END && --depth === 0) return;
    }
  }
  /** An independent reader over the same remaining content. */
  fork(): Queue {
    return new Queue(this.arrs.slice(), this.positions.slice());
  }
}

/** The frames pushed by start tags (their kind and the args their content gets). */
class Stack {
  constructor(
    private readonly kinds: number[],
    private readonly args: Args[],
  ) {}
  top(): Args {
    return this.args[this.args.length - 1];
  }
  topKind(): number {
    return this.kinds[this.kinds.length - 1];
  }
  push(kind: number, args: Args): void {
    this.kinds.push(kind);
    this.args.push(args);
  }
  pop(kind: number): Args {
    if (this.kinds.pop() !== kind) throw new Error(`python formatter bug: unbalanced tag ${kind} in the layout IR`);
    return this.args.pop()!;
  }
  copy(): Stack {
    return new Stack(this.kinds.slice(), this.args.slice());
  }
}

/** Prints `doc` with every line starting at indent level `indent`. */
export function printDoc(doc: readonly Elem[], indent: number): string {
  return new Printer(indent).print(doc);
}

class Printer {
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
        else queue.skipContent(CCONTENT);
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
    return new Measurer(this, queue.fork(), stack.copy(), this.pendingIndent, this.lineWidth).fits();
  }
}

/** Measures whether the queued content fits on the current line (ruff's `FitsMeasurer`). */
class Measurer {
  constructor(
    private readonly printer: Printer,
    private readonly queue: Queue,
    private readonly stack: Stack,
    private pendingIndent: number,
    private lineWidth: number,
  ) {}

  fits(): boolean {
    for (let e = this.queue.pop(); e; e = this.queue.pop()) {
      const result = this.fitsElement(e);
      if (result !== MAYBE) return result === YES;
    }
    return true;
  }

  private fitsElement(e: Elem): number {
    const args = this.stack.top();
    const stack = this.stack;
    switch (e.kind) {
      case SPACE:
        return this.fitsText(" ", 1, args);
      case TEXT:
        return this.fitsText(e.text, e.width, args);
      case LINE:
        if (modeOf(args) === FLAT) {
          if (e.width === SOFT_OR_SPACE) return this.fitsText(" ", 1, args);
          return e.width === SOFT ? MAYBE : YES;
        }
        if (measureOf(args) === FIRST_LINE) return YES;
        this.lineWidth = 0;
        this.pendingIndent = indentOf(args);
        return MAYBE;
      case BEST_FITTING: {
        const variants = e.variants!;
        const flat = modeOf(args) === FLAT;
        stack.push(ENTRY, flat ? withMeasure(args, e.width === 1 ? ALL_LINES : FIRST_LINE) : args);
        this.queue.extend(flat ? variants[0] : variants[variants.length - 1], 1);
        return MAYBE;
      }
      case GROUP:
        return this.fitsGroup(GROUP, e.mode, e.id, args);
      case BFP:
        if (e.id) this.printer.setGroupMode(e.id, modeOf(args));
        stack.push(BFP, args);
        return MAYBE;
      case BFP + END:
        if (modeOf(args) === EXPANDED && stack.topKind() === INDENT) {
          stack.pop(INDENT);
          const unindented = stack.pop(BFP);
          this.lineWidth = 0;
          this.pendingIndent = indentOf(unindented);
          return this.fitsText(")", 1, unindented);
        }
        stack.pop(BFP);
        return MAYBE;
      case CGROUP:
        if (this.printer.groupMode(e.id, modeOf(args)) === e.condition) return this.fitsGroup(CGROUP, e.mode, 0, args);
        stack.push(CGROUP, args);
        return MAYBE;
      case CCONTENT:
        if (this.printer.groupMode(e.id, modeOf(args)) === e.mode) stack.push(CCONTENT, args);
        else this.queue.skipContent(CCONTENT);
        return MAYBE;
      case INDENT:
        stack.push(INDENT, indented(args));
        return MAYBE;
      case INDENT_IF_BREAKS:
        stack.push(INDENT_IF_BREAKS, this.printer.groupMode(e.id, modeOf(args)) === EXPANDED ? indented(args) : args);
        return MAYBE;
      case FITS_EXPANDED:
        if (modeOf(args) === EXPANDED) stack.push(FITS_EXPANDED, args);
        else if (e.mode === NONE || this.printer.groupMode(e.id, modeOf(args)) === e.mode) {
          stack.push(FITS_EXPANDED, withMeasure(withMode(args, EXPANDED), ALLOW_OVERFLOW));
        } else {
          if (e.propagate) return NO;
          stack.push(FITS_EXPANDED, args);
        }
        return MAYBE;
      case ENTRY:
        stack.push(ENTRY, args);
        return MAYBE;
      default:
        if (e.kind >= END) stack.pop(e.kind - END);
        return MAYBE;
    }
  }

  private fitsGroup(kind: number, mode: number, id: number, args: Args): number {
    const printMode: PrintMode = mode === 0 ? modeOf(args) : EXPANDED;
    this.stack.push(kind, withMode(args, printMode));
    if (id) this.printer.setGroupMode(id, printMode);
    return MAYBE;
  }

  private fitsText(text: string, width: number, args: Args): number {
    this.lineWidth += this.pendingIndent * INDENT_WIDTH;
    this.pendingIndent = 0;
    if (width >= 0) this.lineWidth += width;
    else {
      const lines = text.split("\n");
      this.lineWidth += textWidth(lines[0]);
      if (measureOf(args) === FIRST_LINE) return this.lineWidth > LINE_WIDTH ? NO : YES;
      this.lineWidth = textWidth(lines[lines.length - 1]);
    }
    return this.lineWidth > LINE_WIDTH && measureOf(args) !== ALLOW_OVERFLOW ? NO : MAYBE;
  }
}
