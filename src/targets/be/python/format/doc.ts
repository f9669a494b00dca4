// The layout IR, modelled on ruff's: a flat list of text, line breaks and paired start/end
// tags (groups that print flat or expanded, indents, conditional content, best-fitting
// variants). `DocBuilder` writes it the way ruff's formatter does, with ruff's node levels.

import { textWidth } from "./width.js";

export type PrintMode = "flat" | "expanded";
export type GroupMode = "flat" | "expand" | "propagated";
export type LineMode = "soft" | "softOrSpace" | "hard" | "empty";

/** Content shown, or a group active, only when the group `id` (0: the enclosing one) prints in `mode`. */
export interface Condition {
  mode: PrintMode;
  id: number;
}

export interface Text {
  k: "text";
  s: string;
  /** Display width; -1 when the text spans several lines. */
  w: number;
}
export interface Group {
  k: "group";
  id: number;
  mode: GroupMode;
}
export interface ConditionalGroup {
  k: "cgroup";
  cond: Condition;
  mode: GroupMode;
}
export interface FitsExpanded {
  k: "fitsExpanded";
  cond: Condition | null;
  propagate: boolean;
}
export interface BestFitting {
  k: "bestFitting";
  /** Each variant starts with an `entry` and ends with an `/entry` tag. */
  variants: Elem[][];
  allLines: boolean;
}

export type Elem =
  | Text
  | { k: "space" }
  | { k: "line"; m: LineMode }
  | { k: "expandParent" }
  | BestFitting
  | Group
  | { k: "/group" }
  | ConditionalGroup
  | { k: "/cgroup" }
  | { k: "ccontent"; cond: Condition }
  | { k: "/ccontent" }
  | { k: "indent" }
  | { k: "/indent" }
  | { k: "indentIfBreaks"; id: number }
  | { k: "/indentIfBreaks" }
  | FitsExpanded
  | { k: "/fitsExpanded" }
  | { k: "entry" }
  | { k: "/entry" }
  | { k: "bfp"; id: number }
  | { k: "/bfp" };

/** Where the formatter is: ruff's `NodeLevel` (`expr` carries the optional-parentheses group, 0 for none). */
export type NodeLevel = { k: "top" } | { k: "expr"; id: number } | { k: "paren" };

export const TOP: NodeLevel = { k: "top" };
const SPACE: Elem = { k: "space" };
const SOFT: Elem = { k: "line", m: "soft" };
const SOFT_OR_SPACE: Elem = { k: "line", m: "softOrSpace" };
const HARD: Elem = { k: "line", m: "hard" };

export function isParenthesizedLevel(level: NodeLevel): boolean {
  return level.k === "paren" || (level.k === "expr" && level.id !== 0);
}

/** Writes IR elements; content is a callback run at once, like ruff's `format_with`. */
export class DocBuilder {
  out: Elem[] = [];
  level: NodeLevel = TOP;
  private nextId = 1;

  groupId(): number {
    return this.nextId++;
  }

  text(s: string): void {
    this.out.push({ k: "text", s, w: s.includes("\n") ? -1 : textWidth(s) });
  }
  space(): void {
    this.out.push(SPACE);
  }
  softLine(): void {
    this.out.push(SOFT);
  }
  softLineOrSpace(): void {
    this.out.push(SOFT_OR_SPACE);
  }
  hardLine(): void {
    this.out.push(HARD);
  }
  expandParent(): void {
    this.out.push({ k: "expandParent" });
  }

  group(content: () => void, options: { id?: number; expand?: boolean } = {}): void {
    this.out.push({ k: "group", id: options.id ?? 0, mode: options.expand ? "expand" : "flat" });
    content();
    this.out.push({ k: "/group" });
  }
  conditionalGroup(cond: Condition, content: () => void): void {
    this.out.push({ k: "cgroup", cond, mode: "flat" });
    content();
    this.out.push({ k: "/cgroup" });
  }
  ifBreaks(content: () => void, id = 0): void {
    this.out.push({ k: "ccontent", cond: { mode: "expanded", id } });
    content();
    this.out.push({ k: "/ccontent" });
  }
  ifFits(content: () => void, id = 0): void {
    this.out.push({ k: "ccontent", cond: { mode: "flat", id } });
    content();
    this.out.push({ k: "/ccontent" });
  }
  indentIfBreaks(id: number, content: () => void): void {
    this.out.push({ k: "indentIfBreaks", id });
    content();
    this.out.push({ k: "/indentIfBreaks" });
  }
  fitsExpanded(cond: Condition | null, content: () => void): void {
    this.out.push({ k: "fitsExpanded", cond, propagate: false });
    content();
    this.out.push({ k: "/fitsExpanded" });
  }
  /** Ruff's `soft_block_indent` (nothing at all when the content is empty). */
  softBlockIndent(content: () => void): void {
    const start = this.out.length;
    this.out.push({ k: "indent" }, SOFT);
    const before = this.out.length;
    content();
    if (this.out.length === before) {
      this.out.length = start;
      return;
    }
    this.out.push({ k: "/indent" }, SOFT);
  }
  /** Ruff's `block_indent`: the content on its own indented lines. */
  blockIndent(content: () => void): void {
    this.out.push({ k: "indent" }, HARD);
    content();
    this.out.push({ k: "/indent" }, HARD);
  }
  bestFitParenthesize(id: number, content: () => void): void {
    this.out.push({ k: "bfp", id });
    content();
    this.out.push({ k: "/bfp" });
  }
  bestFitting(variants: Array<() => void>, allLines = false): void {
    const built = variants.map((variant) => {
      const elems = this.capture(variant);
      return [{ k: "entry" } as Elem, ...elems, { k: "/entry" } as Elem];
    });
    this.out.push({ k: "bestFitting", variants: built, allLines });
  }

  /** Runs `content` at `level`, restoring the previous level afterwards. */
  withLevel(level: NodeLevel, content: () => void): void {
    const saved = this.level;
    this.level = level;
    try {
      content();
    } finally {
      this.level = saved;
    }
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
    for (const elem of elems) this.out.push(elem);
  }
}

/** Whether a forced break in `elems` reaches the enclosing group (none stops it on the way). */
export function propagatesExpand(elems: readonly Elem[]): boolean {
  let shielded = 0;
  for (const elem of elems) {
    switch (elem.k) {
      case "fitsExpanded":
      case "bfp":
        shielded++;
        break;
      case "/fitsExpanded":
      case "/bfp":
        shielded--;
        break;
      case "expandParent":
        if (shielded === 0) return true;
        break;
      case "line":
        if (shielded === 0 && (elem.m === "hard" || elem.m === "empty")) return true;
        break;
      case "text":
        if (shielded === 0 && elem.w < 0) return true;
        break;
      case "group":
        if (shielded === 0 && elem.mode === "expand") return true;
        break;
      default:
        break;
    }
  }
  return false;
}

/** Ruff's `will_break`: the content contains a forced line break. */
export function willBreak(elems: readonly Elem[]): boolean {
  for (const elem of elems) {
    switch (elem.k) {
      case "expandParent":
        return true;
      case "group":
        if (elem.mode !== "flat") return true;
        break;
      case "line":
        if (elem.m === "hard" || elem.m === "empty") return true;
        break;
      case "text":
        if (elem.w < 0) return true;
        break;
      case "bestFitting":
        if (willBreak(elem.variants[0])) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

type Enclosing = { k: "group"; g: Group | ConditionalGroup } | { k: "fits"; tag: FitsExpanded; before: boolean } | { k: "bfp"; before: boolean } | { k: "boundary" };

/**
 * Ruff's `propagate_expand`: a group that contains a forced break (hard line, expand-parent,
 * multi-line text, or an expanded group) prints expanded. Best-fitting elements and
 * best-fit parentheses stop the propagation; `fitsExpanded` records it instead.
 */
export function propagateExpand(doc: readonly Elem[]): void {
  propagate(doc, []);
}

function propagate(elems: readonly Elem[], enclosing: Enclosing[]): boolean {
  let expands = false;
  for (const elem of elems) {
    let elemExpands = false;
    switch (elem.k) {
      case "group":
      case "cgroup":
        enclosing.push({ k: "group", g: elem });
        break;
      case "/group":
      case "/cgroup": {
        const top = enclosing.pop();
        elemExpands = top?.k === "group" && top.g.mode !== "flat";
        break;
      }
      case "bfp":
        enclosing.push({ k: "bfp", before: expands });
        expands = false;
        continue;
      case "/bfp": {
        const top = enclosing.pop();
        if (top?.k === "bfp") expands = top.before;
        continue;
      }
      case "bestFitting":
        enclosing.push({ k: "boundary" });
        for (const variant of elem.variants) propagate(variant, enclosing);
        enclosing.pop();
        continue;
      case "fitsExpanded":
        enclosing.push({ k: "fits", tag: elem, before: expands });
        break;
      case "/fitsExpanded": {
        const top = enclosing.pop();
        if (top?.k === "fits") expands = top.before;
        continue;
      }
      case "text":
        elemExpands = elem.w < 0;
        break;
      case "expandParent":
        elemExpands = true;
        break;
      case "line":
        elemExpands = elem.m === "hard" || elem.m === "empty";
        break;
      default:
        break;
    }
    if (elemExpands) {
      expands = true;
      const parent = enclosing[enclosing.length - 1];
      if (parent?.k === "group" && parent.g.mode === "flat") parent.g.mode = "propagated";
      else if (parent?.k === "fits") parent.tag.propagate = true;
    }
  }
  return expands;
}

/**
 * Ruff's `RemoveSoftLinesBuffer`: the content as if the line were infinitely wide. Soft
 * breaks vanish, soft-or-space breaks become spaces, `ifBreaks` content is dropped and
 * `ifFits` content kept.
 */
export function removeSoftLines(elems: readonly Elem[]): Elem[] {
  const out: Elem[] = [];
  let dropping = 0;
  for (const elem of elems) {
    if (dropping > 0) {
      if (elem.k === "ccontent") dropping++;
      else if (elem.k === "/ccontent") dropping--;
      continue;
    }
    if (elem.k === "line" && elem.m === "soft") continue;
    if (elem.k === "line" && elem.m === "softOrSpace") out.push(SPACE);
    else if (elem.k === "ccontent") {
      if (elem.cond.mode === "expanded") dropping = 1;
    } else if (elem.k === "/ccontent") continue;
    else if (elem.k === "bestFitting") out.push(...removeSoftLines(elem.variants[0].slice(1, -1)));
    else out.push(elem);
  }
  return out;
}
