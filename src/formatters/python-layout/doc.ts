// Writes the layout IR the way ruff's formatter does: content is a callback run at once
// (ruff's `format_with`), the node level says whether line breaks may appear inside
// (parentheses) and which optional-parentheses group conditions refer to.

import {
  BFP,
  CCONTENT,
  CGROUP,
  type Elem,
  END,
  ENTRY,
  EXPAND_PARENT,
  EXPANDED,
  FITS_EXPANDED,
  FLAT,
  GROUP,
  GROUP_EXPAND,
  HARD,
  INDENT,
  INDENT_IF_BREAKS,
  NONE,
  SOFT,
  SOFT_OR_SPACE,
  SPACE_ELEM,
  bestFittingElem,
  elem,
  lineElem,
  textElem,
} from "./ir.js";
import { textWidth } from "./width.js";

/** Content shown, or a group active, only when group `id` (0: the enclosing one) prints in `mode`. */
export interface Condition {
  mode: "flat" | "expanded";
  id: number;
}

/** Where the formatter is: ruff's `NodeLevel` (`expr` carries the optional-parentheses group, 0 for none). */
export type NodeLevel = { k: "top" } | { k: "expr"; id: number } | { k: "paren" };

export const TOP: NodeLevel = { k: "top" };
export const PAREN: NodeLevel = { k: "paren" };
/** An expression outside any optional parentheses. */
export const EXPRESSION: NodeLevel = { k: "expr", id: 0 };

const SOFT_LINE = lineElem(SOFT);
const SOFT_OR_SPACE_LINE = lineElem(SOFT_OR_SPACE);
const HARD_LINE = lineElem(HARD);
// Tags without state are shared (groups, whose mode propagation changes, are not).
const END_GROUP = elem(GROUP + END);
const END_CGROUP = elem(CGROUP + END);
const END_CONTENT = elem(CCONTENT + END);
const START_INDENT = elem(INDENT);
const END_INDENT = elem(INDENT + END);
const END_INDENT_IF_BREAKS = elem(INDENT_IF_BREAKS + END);
const END_FITS_EXPANDED = elem(FITS_EXPANDED + END);
const START_ENTRY = elem(ENTRY);
const END_ENTRY = elem(ENTRY + END);
const END_BFP = elem(BFP + END);
const EXPAND_PARENT_ELEM = elem(EXPAND_PARENT);

const printMode = (mode: "flat" | "expanded") => (mode === "expanded" ? EXPANDED : FLAT);

export function isParenthesizedLevel(level: NodeLevel): boolean {
  return level.k === "paren" || (level.k === "expr" && level.id !== 0);
}

export class DocBuilder {
  out: Elem[] = [];
  level: NodeLevel = TOP;
  private nextId = 1;
  /** Set when the whole statement is ASCII on one line: text widths are lengths. */
  plainText = false;

  groupId(): number {
    return this.nextId++;
  }

  text(s: string): void {
    this.out.push(textElem(s, this.plainText ? s.length : s.includes("\n") ? -1 : textWidth(s)));
  }
  space(): void {
    this.out.push(SPACE_ELEM);
  }
  softLine(): void {
    this.out.push(SOFT_LINE);
  }
  softLineOrSpace(): void {
    this.out.push(SOFT_OR_SPACE_LINE);
  }
  hardLine(): void {
    this.out.push(HARD_LINE);
  }
  expandParent(): void {
    this.out.push(EXPAND_PARENT_ELEM);
  }

  group(content: () => void, options?: { id?: number; expand?: boolean }): void {
    this.out.push(elem(GROUP, options?.expand ? GROUP_EXPAND : 0, options?.id ?? 0));
    content();
    this.out.push(END_GROUP);
  }
  conditionalGroup(cond: Condition, content: () => void): void {
    this.out.push(elem(CGROUP, 0, cond.id, printMode(cond.mode)));
    content();
    this.out.push(END_CGROUP);
  }
  ifBreaks(content: () => void, id = 0): void {
    this.out.push(elem(CCONTENT, EXPANDED, id));
    content();
    this.out.push(END_CONTENT);
  }
  ifFits(content: () => void, id = 0): void {
    this.out.push(elem(CCONTENT, FLAT, id));
    content();
    this.out.push(END_CONTENT);
  }
  indentIfBreaks(id: number, content: () => void): void {
    this.out.push(elem(INDENT_IF_BREAKS, 0, id));
    content();
    this.out.push(END_INDENT_IF_BREAKS);
  }
  fitsExpanded(cond: Condition | null, content: () => void): void {
    this.out.push(elem(FITS_EXPANDED, cond ? printMode(cond.mode) : NONE, cond?.id ?? 0));
    content();
    this.out.push(END_FITS_EXPANDED);
  }
  /** Ruff's `soft_block_indent` (nothing at all when the content is empty). */
  softBlockIndent(content: () => void): void {
    const start = this.out.length;
    this.out.push(START_INDENT, SOFT_LINE);
    const before = this.out.length;
    content();
    if (this.out.length === before) {
      this.out.length = start;
      return;
    }
    this.out.push(END_INDENT, SOFT_LINE);
  }
  /** Ruff's `block_indent`: the content on its own indented lines. */
  blockIndent(content: () => void): void {
    this.out.push(START_INDENT, HARD_LINE);
    content();
    this.out.push(END_INDENT, HARD_LINE);
  }
  bestFitParenthesize(id: number, content: () => void): void {
    this.out.push(elem(BFP, 0, id));
    content();
    this.out.push(END_BFP);
  }
  bestFitting(variants: Array<() => void>, allLines = false): void {
    const built = variants.map((variant) => {
      const elems = this.capture(variant);
      elems.unshift(START_ENTRY);
      elems.push(END_ENTRY);
      return elems;
    });
    this.out.push(bestFittingElem(built, allLines));
  }

  /** Runs `content` at `level`, restoring the previous level afterwards (an error abandons the builder). */
  withLevel(level: NodeLevel, content: () => void): void {
    const saved = this.level;
    this.level = level;
    content();
    this.level = saved;
  }
  /** The elements `content` writes, without writing them (ruff's memoized content). */
  capture(content: () => void): Elem[] {
    const saved = this.out;
    this.out = [];
    try {
      content();
      return this.out;
    } finally {
      this.out = saved;
    }
  }
  emit(elems: readonly Elem[]): void {
    for (const e of elems) this.out.push(e);
  }
}
