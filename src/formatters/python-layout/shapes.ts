// Lines of one shape: the same text but for the spelling of names and of plain string
// contents (the slots), each the same width. A layout reads their widths, never their
// letters (keywords, read by text, are not slots), so one layout with the slots refilled
// serves every line of the shape. A shape whose layout moved or merged a slot is not reused.

import { KEYWORDS } from "./stream.js";
import { isStringPrefix, stringEnd, Unsupported } from "./tokens.js";

/** A shape's first line, its slots as `[start, end, kind]` triples, and its layout cut around them (null: not reusable). */
interface Template {
  text: string;
  slots: Int32Array;
  parts: string[] | null;
}

/** Layouts of line shapes, for lines of code (a layout that depends on `wrapProse`, prose's, has no slots). */
export class ShapeMemory {
  private readonly byHash = new Map<number, Template[]>();
  private count = 0;
  /** The line `layoutOf` scanned last, with its slots: what `remember` is given the layout of. */
  private scanned: { text: string; slots: Int32Array } | undefined;

  constructor(private readonly capacity: number) {}

  /** The layout of `text` from a line of its shape laid out before, or undefined. */
  layoutOf(text: string): string | undefined {
    this.scanned = undefined;
    const count = scanSlots(text, found);
    if (count <= 0) return undefined;
    const hash = shapeHash(text, found, count);
    const candidates = this.byHash.get(hash);
    if (candidates !== undefined) {
      for (const template of candidates) {
        if (!sameShape(template, text, found, 3 * count)) continue;
        // A shape whose layout is not reusable is laid out anew, not remembered again.
        return template.parts === null ? undefined : fill(template.parts, text, found, 3 * count);
      }
    }
    this.scanned = { text, slots: found.slice(0, 3 * count) };
    return undefined;
  }

  /** Remembers the layout of the line `layoutOf` was last asked about and did not find. */
  remember(text: string, layout: string): void {
    const scanned = this.scanned;
    if (scanned === undefined || scanned.text !== text) return;
    this.scanned = undefined;
    if (this.count >= this.capacity) this.clear();
    const hash = shapeHash(text, scanned.slots, scanned.slots.length / 3);
    const template: Template = { text, slots: scanned.slots, parts: cut(layout, text, scanned.slots) };
    const candidates = this.byHash.get(hash);
    if (candidates) candidates.push(template);
    else this.byHash.set(hash, [template]);
    this.count++;
  }

  clear(): void {
    this.byHash.clear();
    this.count = 0;
    this.scanned = undefined;
  }
}

/** Scratch space for a scan's slots (a line with more is not shaped). */
const MAX_SLOTS = 1024;
const found = new Int32Array(3 * MAX_SLOTS);
/** The kinds of slot (an object's properties: see `Kind` in logical-lines.ts). */
const Slot = { Name: 1, String: 2, FString: 3 } as const;

/** Whether `text`, with the first `length` entries of `slots`, is of the template's shape. */
function sameShape(template: Template, text: string, slots: Int32Array, length: number): boolean {
  const other = template.text;
  if (other.length !== text.length || template.slots.length !== length) return false;
  for (let index = 0; index < length; index++) if (template.slots[index] !== slots[index]) return false;
  let pos = 0;
  for (let index = 0; index <= length; index += 3) {
    const end = index < length ? slots[index]! : text.length;
    for (; pos < end; pos++) if (text.charCodeAt(pos) !== other.charCodeAt(pos)) return false;
    pos = slots[index + 1]!;
  }
  return true;
}

/** FNV-1a over the characters outside the slots and each slot's kind and width. */
function shapeHash(text: string, slots: Int32Array, count: number): number {
  let hash = 0x811c9dc5;
  let pos = 0;
  for (let index = 0; index <= 3 * count; index += 3) {
    const end = index < 3 * count ? slots[index]! : text.length;
    for (; pos < end; pos++) hash = Math.imul(hash ^ text.charCodeAt(pos), 0x01000193);
    if (index === 3 * count) break;
    hash = Math.imul(hash ^ (0x10000 + slots[index + 2]! * 0x1000 + slots[index + 1]! - slots[index]!), 0x01000193);
    pos = slots[index + 1]!;
  }
  return hash;
}

/** `layout` cut around the slots of `text`, or null unless it holds the same slots in the same order. */
function cut(layout: string, text: string, slots: Int32Array): string[] | null {
  const scratch = new Int32Array(slots.length + 3);
  if (scanSlots(layout, scratch) !== slots.length / 3) return null;
  const parts: string[] = [];
  let copied = 0;
  for (let index = 0; index < slots.length; index += 3) {
    const [start, end, kind] = [scratch[index]!, scratch[index + 1]!, scratch[index + 2]!];
    if (kind !== slots[index + 2] || layout.slice(start, end) !== text.slice(slots[index]!, slots[index + 1]!)) return null;
    parts.push(layout.slice(copied, start));
    copied = end;
  }
  parts.push(layout.slice(copied));
  return parts;
}

/** The layout of `text` from its shape's parts: the line's own slots between them. */
function fill(parts: readonly string[], text: string, slots: Int32Array, length: number): string {
  const pieces = [parts[0]!];
  for (let index = 0; index < length; index += 3) pieces.push(text.slice(slots[index]!, slots[index + 1]!), parts[index / 3 + 1]!);
  return pieces.join("");
}

/** Keywords, soft keywords included, by first character: a layout reads them by text, so they are no slots. */
const KEPT_BY_FIRST = new Map<number, string[]>();
for (const word of [...KEYWORDS, "match", "case", "type", "_"]) {
  const first = word.charCodeAt(0);
  KEPT_BY_FIRST.set(first, [...(KEPT_BY_FIRST.get(first) ?? []), word]);
}

function isKeptName(text: string, start: number, end: number): boolean {
  const words = KEPT_BY_FIRST.get(text.charCodeAt(start));
  if (words === undefined) return false;
  for (const word of words) if (word.length === end - start && text.startsWith(word, start)) return true;
  return false;
}

const isNameStart = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
const isNameChar = (code: number) => isNameStart(code) || (code >= 48 && code <= 57);
const isDigit = (code: number) => code >= 48 && code <= 57;
/** One-line string content no layout reads: printable ASCII but quotes, backslash and braces (which joining strings may double). */
const isPlainStringChar = (code: number) => code >= 32 && code <= 126 && code !== 34 && code !== 39 && code !== 92 && code !== 123 && code !== 125;

/**
 * Whether the f-string quoted from `quoteAt` to `close` is one-line, its content printable
 * ASCII without quotes or backslashes: the tokenizer takes it as one opaque token, and any
 * content of its width that tokenizes to the same end is laid out alike.
 */
function isPlainFString(text: string, quoteAt: number, close: number): boolean {
  if (close - quoteAt < 3 || text.charCodeAt(close - 1) !== text.charCodeAt(quoteAt)) return false;
  for (let pos = quoteAt + 1; pos < close - 1; pos++) {
    const code = text.charCodeAt(pos);
    if (code < 32 || code > 126 || code === 34 || code === 39 || code === 92) return false;
  }
  return true;
}

/**
 * Writes the slots of `text` into `into` as `[start, end, kind]` and returns how many: names
 * other than keywords, the contents of unprefixed one-line strings in `"` or `'` made of
 * plain characters, and of plain f-strings. Comments, numbers, prefixed and other strings are copied as they are.
 * -1 when the text has a character other than printable ASCII and newlines, a name right
 * before a quote that is no string prefix, an unclosed string or too many slots.
 */
function scanSlots(text: string, into: Int32Array): number {
  const length = text.length;
  const capacity = into.length / 3;
  let count = 0;
  let pos = 0;
  while (pos < length) {
    const code = text.charCodeAt(pos);
    let slotStart = -1;
    let slotEnd = 0;
    let kind: number = Slot.Name;
    if (isNameStart(code)) {
      let end = pos + 1;
      while (end < length && isNameChar(text.charCodeAt(end))) end++;
      const next = text.charCodeAt(end);
      if (next === 34 || next === 39) {
        // A string prefix (`f"`, `rb'`): the string is copied as it is, but a plain f-string's content.
        if (!isStringPrefix(text.slice(pos, end))) return -1;
        const formatted = /[fF]/.test(text.slice(pos, end));
        const close = quotedEnd(text, end, formatted);
        if (close < 0) return -1;
        if (end - pos === 1 && formatted && isPlainFString(text, end, close)) {
          slotStart = end + 1;
          slotEnd = close - 1;
          kind = Slot.FString;
        }
        pos = close;
        if (slotStart < 0) continue;
      } else {
        if (!isKeptName(text, pos, end)) {
          slotStart = pos;
          slotEnd = end;
        }
        pos = end;
      }
    } else if (code === 34 || code === 39) {
      let end = pos + 1;
      while (end < length && isPlainStringChar(text.charCodeAt(end))) end++;
      if (end > pos + 1 && text.charCodeAt(end) === code) {
        slotStart = pos + 1;
        slotEnd = end;
        kind = Slot.String;
        pos = end + 1;
      } else {
        pos = quotedEnd(text, pos, false);
        if (pos < 0) return -1;
        // Its characters are compared as they are: none may look like a slot's.
        continue;
      }
    } else if (isDigit(code) || (code === 46 && isDigit(text.charCodeAt(pos + 1)))) {
      // A number with its letters (`0x1F`, `1e5`, `2j`), none of them a name.
      pos++;
      while (pos < length && (isNameChar(text.charCodeAt(pos)) || text.charCodeAt(pos) === 46)) pos++;
    } else if (code === 35) {
      const end = text.indexOf("\n", pos);
      pos = end === -1 ? length : end;
    } else if ((code >= 32 && code <= 126) || code === 10) {
      pos++;
    } else return -1;
    if (slotStart >= 0) {
      if (count === capacity) return -1;
      into[3 * count] = slotStart;
      into[3 * count + 1] = slotEnd;
      into[3 * count + 2] = kind;
      count++;
    }
  }
  return count;
}

/** Past the string whose quote is at `quoteAt`, or -1 when it is not closed. */
function quotedEnd(text: string, quoteAt: number, formatted: boolean): number {
  try {
    return stringEnd(text, quoteAt, formatted);
  } catch (error) {
    if (error instanceof Unsupported) return -1;
    throw error;
  }
}
