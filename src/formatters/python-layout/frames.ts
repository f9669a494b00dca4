// The printer's working state, shared by printing and measuring: frames whose state (print
// mode, measure mode, indent) is packed into one number, and the queue of element slices
// being read front to back.

import { type Elem, END, type PrintMode } from "./ir.js";

export const LINE_WIDTH = 88;
export const INDENT_WIDTH = 4;

/** How `fits` measures: up to the first line break, every line, or every line ignoring overflow. */
export const FIRST_LINE = 0;
export const ALL_LINES = 1;
export const ALLOW_OVERFLOW = 2;

/**
 * The state a tag gives its content (ruff's `PrintElementArgs`), packed into one number so that
 * pushing a frame allocates nothing: bit 0 the print mode, bits 1-2 the measure mode, the rest
 * the indent level.
 */
export type Args = number;
export const makeArgs = (indent: number, mode: PrintMode, measure: number): Args => (indent << 3) | (measure << 1) | mode;
export const modeOf = (args: Args): PrintMode => (args & 1) as PrintMode;
export const measureOf = (args: Args): number => (args >> 1) & 3;
export const indentOf = (args: Args): number => args >> 3;
export const withMode = (args: Args, mode: PrintMode): Args => (args & ~1) | mode;
export const withMeasure = (args: Args, measure: number): Args => (args & ~6) | (measure << 1);
export const indented = (args: Args): Args => args + 8;

/** A stack of slices being read front to back (ruff's print queue), as parallel arrays. */
export class Queue {
  constructor(
    readonly arrs: (readonly Elem[])[],
    readonly positions: number[],
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
  clear(): void {
    this.arrs.length = this.positions.length = 0;
  }
}

/** Reads past the end tag matching an already consumed start tag of `kind`. */
export function skipContent(reader: { pop(): Elem | undefined }, kind: number): void {
  let depth = 1;
  for (let e = reader.pop(); e; e = reader.pop()) {
    if (e.kind === kind) depth++;
    else if (e.kind === kind + END && --depth === 0) return;
  }
}

/** The frames pushed by start tags (their kind and the args their content gets). */
export class Stack {
  constructor(
    readonly kinds: number[],
    readonly args: Args[],
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
  get size(): number {
    return this.kinds.length;
  }
  clear(): void {
    this.kinds.length = this.args.length = 0;
  }
}
