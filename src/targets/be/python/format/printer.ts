// Prints the layout IR at a line width, following ruff's printer: a group prints flat when
// its content and the rest of the line fit, best-fitting picks the first variant that fits,
// and `fits` measures ahead without consuming. Indents are four spaces.

import type { Condition, Elem, GroupMode, PrintMode } from "./doc.js";
import { textWidth as measureWidth } from "./width.js";

export const LINE_WIDTH = 88;
const INDENT_WIDTH = 4;

type MeasureMode = "firstLine" | "allLines" | "allowOverflow";

interface Args {
  indent: number;
  mode: PrintMode;
  measure: MeasureMode;
}
interface Frame {
  kind: string;
  args: Args;
}
interface Cursor {
  arr: readonly Elem[];
  i: number;
}

type Fits = "yes" | "no" | "maybe";

const END_OF: Record<string, string> = {
  group: "/group",
  cgroup: "/cgroup",
  ccontent: "/ccontent",
  indent: "/indent",
  indentIfBreaks: "/indentIfBreaks",
  fitsExpanded: "/fitsExpanded",
  entry: "/entry",
  bfp: "/bfp",
};
const START_OF: Record<string, string> = Object.fromEntries(Object.entries(END_OF).map(([start, end]) => [end, start]));

const with_ = (args: Args, patch: Partial<Args>): Args => ({ ...args, ...patch });

/** A stack of slices being read front to back (ruff's print queue). */
class Queue {
  constructor(public cursors: Cursor[]) {}
  pop(): Elem | undefined {
    const cursors = this.cursors;
    while (cursors.length > 0) {
      const top = cursors[cursors.length - 1];
      if (top.i < top.arr.length) return top.arr[top.i++];
      cursors.pop();
    }
    return undefined;
  }
  top(): Elem | undefined {
    for (let index = this.cursors.length - 1; index >= 0; index--) {
      const cursor = this.cursors[index];
      if (cursor.i < cursor.arr.length) return cursor.arr[cursor.i];
    }
    return undefined;
  }
  extend(arr: readonly Elem[], start = 0): void {
    this.cursors.push({ arr, i: start });
  }
  popSlice(): void {
    this.cursors.pop();
  }
  /** Skips everything up to and including the end tag matching an already consumed start tag of `kind`. */
  skipContent(kind: string): void {
    const end = END_OF[kind];
    let depth = 1;
    for (let elem = this.pop(); elem; elem = this.pop()) {
      if (elem.k === kind) depth++;
      else if (elem.k === end && --depth === 0) return;
    }
  }
  /** An independent reader over the same remaining content. */
  fork(): Queue {
    return new Queue(this.cursors.map((cursor) => ({ arr: cursor.arr, i: cursor.i })));
  }
}

class Stack {
  constructor(public frames: Frame[]) {}
  top(): Args {
    return this.frames[this.frames.length - 1].args;
  }
  topKind(): string | undefined {
    return this.frames[this.frames.length - 1].kind;
  }
  push(kind: string, args: Args): void {
    this.frames.push({ kind, args });
  }
  pop(kind: string): Args {
    const frame = this.frames.pop();
    if (!frame || frame.kind !== kind) throw new Error(`python formatter bug: unbalanced ${kind} in the layout IR`);
    return frame.args;
  }
}

/** Prints `doc` with every line starting at indent level `indent`. */
export function printDoc(doc: readonly Elem[], indent: number): string {
  return new Printer(indent).print(doc);
}

class Printer {
  private parts: string[] = [];
  private lineWidth = 0;
  private lineHasContent = false;
  private pendingIndent: number;
  private measuredGroupFits = false;
  private groupModes: PrintMode[] = [];

  constructor(private readonly baseIndent: number) {
    this.pendingIndent = baseIndent;
  }

  print(doc: readonly Elem[]): string {
    const stack = new Stack([{ kind: "root", args: { indent: this.baseIndent, mode: "expanded", measure: "firstLine" } }]);
    const queue = new Queue([{ arr: doc, i: 0 }]);
    for (let elem = queue.pop(); elem; elem = queue.pop()) this.printElement(stack, queue, elem);
    return this.parts.join("");
  }

  private modeOf(id: number, fallback: PrintMode): PrintMode {
    if (id === 0) return fallback;
    const mode = this.groupModes[id];
    if (mode === undefined) throw new Error(`python formatter bug: group ${id} referenced before it was printed`);
    return mode;
  }

  private printElement(stack: Stack, queue: Queue, elem: Elem): void {
    const args = stack.top();
    switch (elem.k) {
      case "space":
        return this.printText(" ", 1);
      case "text":
        return this.printText(elem.s, elem.w);
      case "line":
        if (args.mode === "flat" && (elem.m === "soft" || elem.m === "softOrSpace")) {
          if (elem.m === "softOrSpace") this.printText(" ", 1);
          return;
        }
        if (this.lineHasContent) this.newline();
        if (elem.m === "empty") this.newline();
        this.pendingIndent = args.indent;
        return;
      case "expandParent":
        return;
      case "bestFitting":
        return this.printBestFitting(elem.variants, elem.allLines, queue, stack);
      case "group": {
        const mode = elem.mode !== "flat" ? "expanded" : this.flatGroupMode("group", elem.id, args, queue, stack);
        if (elem.id) this.groupModes[elem.id] = mode;
        return stack.push("group", with_(args, { mode }));
      }
      case "bfp":
        return this.printBestFitParenthesize(elem.id, args, queue, stack);
      case "/bfp":
        if (args.mode === "expanded") {
          stack.pop("indent");
          queue.extend([{ k: "line", m: "hard" }, { k: "text", s: ")", w: 1 }]);
        }
        stack.pop("bfp");
        return;
      case "cgroup": {
        const expected = this.modeOf(elem.cond.id, args.mode);
        if (expected === elem.cond.mode) {
          const mode = elem.mode !== "flat" ? "expanded" : this.flatGroupMode("cgroup", 0, args, queue, stack);
          stack.push("cgroup", with_(args, { mode }));
        } else stack.push("cgroup", args);
        return;
      }
      case "ccontent":
        if (this.modeOf(elem.cond.id, args.mode) === elem.cond.mode) stack.push("ccontent", args);
        else queue.skipContent("ccontent");
        return;
      case "indent":
        return stack.push("indent", with_(args, { indent: args.indent + 1 }));
      case "indentIfBreaks":
        return stack.push(
          "indentIfBreaks",
          this.modeOf(elem.id, args.mode) === "expanded" ? with_(args, { indent: args.indent + 1 }) : args,
        );
      case "fitsExpanded":
        if (elem.cond === null || this.modeOf(elem.cond.id, args.mode) === elem.cond.mode) this.measuredGroupFits = false;
        return stack.push("fitsExpanded", args);
      case "entry":
        return stack.push("entry", args);
      default:
        stack.pop(START_OF[elem.k]);
    }
  }

  private printBestFitParenthesize(id: number, args: Args, queue: Queue, stack: Stack): void {
    const open: Elem[] = [{ k: "text", s: "(", w: 1 }, { k: "indent" }, { k: "line", m: "hard" }];
    let mode: PrintMode;
    if (this.flatGroupMode("bfp", id, args, queue, stack) === "flat") mode = "flat";
    else {
      // Parenthesize only when the parenthesized content fits; otherwise prefer no parentheses.
      if (id) this.groupModes[id] = "expanded";
      stack.push("bfp", with_(args, { measure: "allLines" }));
      queue.extend(open);
      const fitsExpanded = this.fits(queue, stack);
      queue.popSlice();
      stack.pop("bfp");
      mode = fitsExpanded ? "expanded" : "flat";
    }
    if (id) this.groupModes[id] = mode;
    if (mode === "expanded") queue.extend(open);
    stack.push("bfp", with_(args, { mode }));
  }

  private flatGroupMode(kind: string, id: number, args: Args, queue: Queue, stack: Stack): PrintMode {
    if (args.mode === "flat" && this.measuredGroupFits) return "flat";
    this.measuredGroupFits = true;
    if (id) this.groupModes[id] = "flat";
    stack.push(kind, with_(args, { mode: "flat" }));
    const fits = this.fits(queue, stack);
    stack.pop(kind);
    return fits ? "flat" : "expanded";
  }

  private printBestFitting(variants: Elem[][], allLines: boolean, queue: Queue, stack: Stack): void {
    const args = stack.top();
    if (args.mode === "flat" && this.measuredGroupFits) {
      queue.extend(variants[0]);
      return this.printEntry(queue, stack, args);
    }
    this.measuredGroupFits = true;
    for (let index = 0; index < variants.length - 1; index++) {
      const variant = variants[index];
      queue.extend(variant, 1);
      stack.push("entry", with_(args, { mode: "flat", measure: allLines ? "allLines" : "firstLine" }));
      const fits = this.fits(queue, stack);
      stack.pop("entry");
      queue.popSlice();
      if (fits) {
        queue.extend(variant);
        return this.printEntry(queue, stack, with_(args, { mode: "flat" }));
      }
    }
    queue.extend(variants[variants.length - 1]);
    this.printEntry(queue, stack, with_(args, { mode: "expanded" }));
  }

  private printEntry(queue: Queue, stack: Stack, args: Args): void {
    const start = queue.pop();
    if (start?.k !== "entry") throw new Error("python formatter bug: best-fitting variant without entry tag");
    stack.push("entry", args);
    let depth = 1;
    for (let elem = queue.pop(); elem; elem = queue.pop()) {
      if (elem.k === "entry") depth++;
      else if (elem.k === "/entry" && --depth === 0) {
        stack.pop("entry");
        return;
      }
      this.printElement(stack, queue, elem);
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
      this.lineWidth = measureWidth(line);
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
    return new Measurer(this, queue.fork(), new Stack([...stack.frames]), this.pendingIndent, this.lineWidth).fits();
  }

  /** For the measurer: the mode a group with `id` was printed (or measured) in. */
  groupMode(id: number, fallback: PrintMode): PrintMode {
    return this.modeOf(id, fallback);
  }
  setGroupMode(id: number, mode: PrintMode): void {
    this.groupModes[id] = mode;
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
    for (let elem = this.queue.pop(); elem; elem = this.queue.pop()) {
      const result = this.fitsElement(elem);
      if (result === "yes") return true;
      if (result === "no") return false;
    }
    return true;
  }

  private conditionMet(cond: Condition, args: Args): boolean {
    return this.printer.groupMode(cond.id, args.mode) === cond.mode;
  }

  private fitsElement(elem: Elem): Fits {
    const args = this.stack.top();
    switch (elem.k) {
      case "space":
        return this.fitsText(" ", 1, args);
      case "text":
        return this.fitsText(elem.s, elem.w, args);
      case "line":
        if (args.mode === "flat") {
          if (elem.m === "softOrSpace") return this.fitsText(" ", 1, args);
          if (elem.m === "soft") return "maybe";
          return "yes";
        }
        if (args.measure === "firstLine") return "yes";
        this.lineWidth = 0;
        this.pendingIndent = args.indent;
        return "maybe";
      case "expandParent":
        return "maybe";
      case "bestFitting": {
        const flat = args.mode === "flat";
        const slice = flat ? elem.variants[0] : elem.variants[elem.variants.length - 1];
        this.stack.push("entry", flat ? with_(args, { measure: elem.allLines ? "allLines" : "firstLine" }) : args);
        this.queue.extend(slice, 1);
        return "maybe";
      }
      case "group":
        return this.fitsGroup("group", elem.mode, elem.id, args);
      case "bfp":
        if (elem.id) this.printer.setGroupMode(elem.id, args.mode);
        this.stack.push("bfp", args);
        return "maybe";
      case "/bfp":
        if (args.mode === "expanded" && this.stack.topKind() === "indent") {
          this.stack.pop("indent");
          const unindented = this.stack.pop("bfp");
          this.lineWidth = 0;
          this.pendingIndent = unindented.indent;
          return this.fitsText(")", 1, unindented);
        }
        this.stack.pop("bfp");
        return "maybe";
      case "cgroup":
        if (this.conditionMet(elem.cond, args)) return this.fitsGroup("cgroup", elem.mode, 0, args);
        this.stack.push("cgroup", args);
        return "maybe";
      case "ccontent":
        if (this.conditionMet(elem.cond, args)) this.stack.push("ccontent", args);
        else this.queue.skipContent("ccontent");
        return "maybe";
      case "indent":
        this.stack.push("indent", with_(args, { indent: args.indent + 1 }));
        return "maybe";
      case "indentIfBreaks":
        this.stack.push(
          "indentIfBreaks",
          this.printer.groupMode(elem.id, args.mode) === "expanded" ? with_(args, { indent: args.indent + 1 }) : args,
        );
        return "maybe";
      case "fitsExpanded":
        if (args.mode === "expanded") this.stack.push("fitsExpanded", args);
        else if (elem.cond === null || this.conditionMet(elem.cond, args)) {
          this.stack.push("fitsExpanded", with_(args, { mode: "expanded", measure: "allowOverflow" }));
        } else {
          if (elem.propagate) return "no";
          this.stack.push("fitsExpanded", args);
        }
        return "maybe";
      case "entry":
        this.stack.push("entry", args);
        return "maybe";
      default:
        this.stack.pop(START_OF[elem.k]);
        return "maybe";
    }
  }

  private fitsGroup(kind: string, mode: GroupMode, id: number, args: Args): Fits {
    const printMode: PrintMode = mode === "flat" ? args.mode : "expanded";
    this.stack.push(kind, with_(args, { mode: printMode }));
    if (id) this.printer.setGroupMode(id, printMode);
    return "maybe";
  }

  private fitsText(text: string, width: number, args: Args): Fits {
    this.lineWidth += this.pendingIndent * INDENT_WIDTH;
    this.pendingIndent = 0;
    const overflowAllowed = args.measure === "allowOverflow";
    if (width >= 0) this.lineWidth += width;
    else {
      const lines = text.split("\n");
      this.lineWidth += measureWidth(lines[0]);
      if (args.measure === "firstLine") return this.lineWidth > LINE_WIDTH ? "no" : "yes";
      this.lineWidth = measureWidth(lines[lines.length - 1]);
    }
    return this.lineWidth > LINE_WIDTH && !overflowAllowed ? "no" : "maybe";
  }
}
