// The layout IR, modelled on ruff's: a flat list of text, line breaks and paired start/end
// tags (groups that print flat or expanded, indents, conditional content, best-fitting
// variants). One element class with numeric kinds keeps the printer's dispatch monomorphic.

export const TEXT = 0;
export const SPACE = 1;
export const LINE = 2;
export const EXPAND_PARENT = 3;
export const BEST_FITTING = 4;
export const GROUP = 5;
/** A group that is only a group when its condition holds (ruff's conditional group). */
export const CGROUP = 6;
/** Content shown only when its condition holds (`if_group_breaks`, `if_group_fits_on_line`). */
export const CCONTENT = 7;
export const INDENT = 8;
export const INDENT_IF_BREAKS = 9;
export const FITS_EXPANDED = 10;
/** A best-fitting variant's start. */
export const ENTRY = 11;
/** Ruff's `best_fit_parenthesize`. */
export const BFP = 12;
/** Added to a start tag's kind, the kind of its end tag. */
export const END = 16;

/** Print modes, also the modes a condition tests. */
export const FLAT = 0;
export const EXPANDED = 1;
export type PrintMode = typeof FLAT | typeof EXPANDED;

/** Group modes: flat unless it must expand (`EXPAND` by request, `PROPAGATED` by a forced break inside). */
export const GROUP_EXPAND = 1;
export const GROUP_PROPAGATED = 2;

export const SOFT = 0;
export const SOFT_OR_SPACE = 1;
export const HARD = 2;
export const EMPTY = 3;

/** No condition (or no group id). */
export const NONE = -1;

export class Elem {
  constructor(
    readonly kind: number,
    /** The text of a `TEXT`. */
    readonly text: string,
    /** A `TEXT`'s display width (-1 when it spans lines); a `LINE`'s mode; best-fitting: 1 to measure all lines. */
    readonly width: number,
    /** The group id: of a group, or the one a condition, indent or best-fit parentheses refer to (0: the enclosing). */
    readonly id: number,
    /** A group's mode (mutable: expansion propagates), or the print mode a condition requires (`NONE`: none). */
    public mode: number,
    /** For a conditional group: the print mode its condition requires. */
    readonly condition: number,
    /** A best-fitting element's variants, each starting with `ENTRY` and ending with its end tag. */
    readonly variants: Elem[][] | null,
  ) {}
  /** For `FITS_EXPANDED`: a forced break inside was propagated to it. */
  propagate = false;
}

export const elem = (kind: number, mode = 0, id = 0, condition = NONE): Elem => new Elem(kind, "", 0, id, mode, condition, null);
export const lineElem = (mode: number): Elem => new Elem(LINE, "", mode, 0, 0, NONE, null);
export const textElem = (text: string, width: number): Elem => new Elem(TEXT, text, width, 0, 0, NONE, null);
export const bestFittingElem = (variants: Elem[][], allLines: boolean): Elem => new Elem(BEST_FITTING, "", allLines ? 1 : 0, 0, 0, NONE, variants);

const startsShielding = (kind: number) => kind === FITS_EXPANDED || kind === BFP;

/** Whether the element forces the line to break. */
function forcesBreak(e: Elem): boolean {
  return e.kind === EXPAND_PARENT || (e.kind === LINE && e.width >= HARD) || (e.kind === TEXT && e.width < 0);
}

/**
 * Ruff's `propagate_expand`: a group that contains a forced break (hard line, expand-parent,
 * multi-line text, or an expanded group) prints expanded. Best-fitting elements and
 * best-fit parentheses stop the propagation; `FITS_EXPANDED` records it instead.
 */
export function propagateExpand(doc: readonly Elem[]): void {
  propagate(doc, []);
}

interface Enclosing {
  tag: Elem | null;
  /** For shielding tags: whether the content before them expanded. */
  before: boolean;
}

function propagate(elems: readonly Elem[], enclosing: Enclosing[]): boolean {
  let expands = false;
  for (const e of elems) {
    let elemExpands = false;
    const kind = e.kind;
    if (kind === GROUP || kind === CGROUP) enclosing.push({ tag: e, before: false });
    else if (kind === GROUP + END || kind === CGROUP + END) {
      const top = enclosing.pop();
      elemExpands = top?.tag !== null && top?.tag.mode !== 0;
    } else if (kind === BFP) {
      enclosing.push({ tag: null, before: expands });
      expands = false;
      continue;
    } else if (kind === FITS_EXPANDED) enclosing.push({ tag: e, before: expands });
    else if (kind === BFP + END || kind === FITS_EXPANDED + END) {
      expands = enclosing.pop()?.before ?? false;
      continue;
    } else if (kind === BEST_FITTING) {
      enclosing.push({ tag: null, before: false });
      for (const variant of e.variants!) propagate(variant, enclosing);
      enclosing.pop();
      continue;
    } else elemExpands = forcesBreak(e);
    if (elemExpands) {
      expands = true;
      const parent = enclosing[enclosing.length - 1]?.tag;
      if (!parent) continue;
      if (parent.kind === FITS_EXPANDED) parent.propagate = true;
      else if (parent.mode === 0) parent.mode = GROUP_PROPAGATED;
    }
  }
  return expands;
}

/** Ruff's `will_break`: the content contains a forced line break. */
export function willBreak(elems: readonly Elem[]): boolean {
  for (const e of elems) {
    if (forcesBreak(e) || (e.kind === GROUP && e.mode !== 0)) return true;
    if (e.kind === BEST_FITTING && willBreak(e.variants![0])) return true;
  }
  return false;
}

/** Whether a forced break in `elems` reaches the enclosing group (no `FITS_EXPANDED` or `BFP` stops it on the way). */
export function propagatesExpand(elems: readonly Elem[]): boolean {
  let shielded = 0;
  for (const e of elems) {
    if (startsShielding(e.kind)) shielded++;
    else if (startsShielding(e.kind - END)) shielded--;
    else if (shielded === 0 && (forcesBreak(e) || (e.kind === GROUP && e.mode === GROUP_EXPAND))) return true;
  }
  return false;
}

/**
 * Ruff's `RemoveSoftLinesBuffer`: the content as if the line were infinitely wide. Soft
 * breaks vanish, soft-or-space breaks become spaces, content shown only when a group breaks
 * is dropped, content shown only when it fits is kept.
 */
export function removeSoftLines(elems: readonly Elem[], out: Elem[] = []): Elem[] {
  let dropping = 0;
  for (const e of elems) {
    if (dropping > 0) {
      if (e.kind === CCONTENT) dropping++;
      else if (e.kind === CCONTENT + END) dropping--;
    } else if (e.kind === LINE && e.width === SOFT) continue;
    else if (e.kind === LINE && e.width === SOFT_OR_SPACE) out.push(SPACE_ELEM);
    else if (e.kind === CCONTENT) {
      if (e.mode === EXPANDED) dropping = 1;
    } else if (e.kind === CCONTENT + END) continue;
    else if (e.kind === BEST_FITTING) removeSoftLines(e.variants![0].slice(1, -1), out);
    else out.push(e);
  }
  return out;
}

export const SPACE_ELEM = elem(SPACE);
