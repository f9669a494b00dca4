// Measures whether queued content fits on the current line without consuming it (ruff's
// `FitsMeasurer`): the measurer reads through a view of the printer's queue and stack and
// stops at the first line break, or the line width, as the measure mode says.

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
} from "./ir.js";
import {
  ALL_LINES,
  ALLOW_OVERFLOW,
  type Args,
  FIRST_LINE,
  INDENT_WIDTH,
  indentOf,
  indented,
  LINE_WIDTH,
  measureOf,
  modeOf,
  Queue,
  skipContent,
  Stack,
  withMeasure,
  withMode,
} from "./frames.js";
import { textWidth } from "./width.js";

/** The modes of groups with ids, which conditions refer to; measuring records modes too. */
export interface GroupModes {
  groupMode(id: number, fallback: PrintMode): PrintMode;
  setGroupMode(id: number, mode: PrintMode): void;
}

const YES = 0;
const NO = 1;
const MAYBE = 2;

/**
 * What `fits` reads and pushes: its own slices and frames on top of a read-only view of the
 * printer's queue and stack (ruff's `FitsQueue` and `StackedStack`), so measuring copies nothing.
 */
class FitsView {
  private readonly own = new Queue([], []);
  private readonly ownFrames = new Stack([], []);
  private baseQueue!: Queue;
  private baseCursor = 0;
  private basePosition = 0;
  private baseStack!: Stack;
  private baseFrames = 0;

  reset(queue: Queue, stack: Stack): void {
    this.own.clear();
    this.ownFrames.clear();
    this.baseQueue = queue;
    this.baseCursor = queue.arrs.length - 1;
    this.basePosition = this.baseCursor >= 0 ? queue.positions[this.baseCursor] : 0;
    this.baseStack = stack;
    this.baseFrames = stack.size;
  }
  pop(): Elem | undefined {
    const own = this.own.pop();
    if (own) return own;
    const base = this.baseQueue;
    while (this.baseCursor >= 0) {
      const arr = base.arrs[this.baseCursor];
      if (this.basePosition < arr.length) return arr[this.basePosition++];
      if (--this.baseCursor >= 0) this.basePosition = base.positions[this.baseCursor];
    }
    return undefined;
  }
  extend(arr: readonly Elem[], start: number): void {
    this.own.extend(arr, start);
  }
  top(): Args {
    return this.ownFrames.size > 0 ? this.ownFrames.top() : this.baseStack.args[this.baseFrames - 1];
  }
  topKind(): number {
    return this.ownFrames.size > 0 ? this.ownFrames.topKind() : this.baseStack.kinds[this.baseFrames - 1];
  }
  push(kind: number, args: Args): void {
    this.ownFrames.push(kind, args);
  }
  popFrame(kind: number): Args {
    if (this.ownFrames.size > 0) return this.ownFrames.pop(kind);
    this.baseFrames--;
    if (this.baseStack.kinds[this.baseFrames] !== kind) throw new Error(`python formatter bug: unbalanced tag ${kind} in the layout IR`);
    return this.baseStack.args[this.baseFrames];
  }
}

/** Measures whether the queued content fits on the current line (ruff's `FitsMeasurer`). */
class Measurer {
  private readonly view = new FitsView();
  private pendingIndent = 0;
  private lineWidth = 0;
  private printer!: GroupModes;

  fits(printer: GroupModes, queue: Queue, stack: Stack, pendingIndent: number, lineWidth: number): boolean {
    this.printer = printer;
    this.view.reset(queue, stack);
    this.pendingIndent = pendingIndent;
    this.lineWidth = lineWidth;
    for (let e = this.view.pop(); e; e = this.view.pop()) {
      const result = this.fitsElement(e);
      if (result !== MAYBE) return result === YES;
    }
    return true;
  }

  private fitsElement(e: Elem): number {
    const args = this.view.top();
    const stack = this.view;
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
        this.view.extend(flat ? variants[0] : variants[variants.length - 1], 1);
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
          stack.popFrame(INDENT);
          const unindented = stack.popFrame(BFP);
          this.lineWidth = 0;
          this.pendingIndent = indentOf(unindented);
          return this.fitsText(")", 1, unindented);
        }
        stack.popFrame(BFP);
        return MAYBE;
      case CGROUP:
        if (this.printer.groupMode(e.id, modeOf(args)) === e.condition) return this.fitsGroup(CGROUP, e.mode, 0, args);
        stack.push(CGROUP, args);
        return MAYBE;
      case CCONTENT:
        if (this.printer.groupMode(e.id, modeOf(args)) === e.mode) stack.push(CCONTENT, args);
        else skipContent(this.view, CCONTENT);
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
        if (e.kind >= END) stack.popFrame(e.kind - END);
        return MAYBE;
    }
  }

  private fitsGroup(kind: number, mode: number, id: number, args: Args): number {
    const printMode: PrintMode = mode === 0 ? modeOf(args) : EXPANDED;
    this.view.push(kind, withMode(args, printMode));
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

/** Measuring never nests and printing is synchronous: one measurer serves every printer. */
const MEASURER = new Measurer();

/** Whether the content `queue` holds fits at the given position of the current line. */
export function fits(modes: GroupModes, queue: Queue, stack: Stack, pendingIndent: number, lineWidth: number): boolean {
  return MEASURER.fits(modes, queue, stack, pendingIndent, lineWidth);
}
