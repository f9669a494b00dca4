// What each kind of field becomes in the pages' code, in one table: how a cell shows it,
// how an edited row's value fills its input, how the draft parser reads the input back, and
// which input it is typed in. A new kind is one row (the compiler asks for it).

import type { FieldKind } from "./openapi.js";

interface KindCode {
  /** The runtime/display component showing the value. */
  display: string;
  /** The runtime/draft function turning a row's value into an input's text. */
  toInput: string;
  /** The `DraftParser` method (runtime/draft) reading the input's text into the body. */
  parse: string;
  /** The `kind` of runtime/fields' `TextField`; none: plain text. */
  textKind?: string;
}

/** Kinds holding text that can name a row (titles, pickers' labels, link text). */
export const TEXT_KINDS: ReadonlySet<FieldKind> = new Set(["str", "email"]);

const TEXT: KindCode = { display: "Plain", toInput: "inputText", parse: "text" };

export const KIND_CODE: Readonly<Record<FieldKind, KindCode>> = {
  uuid: TEXT,
  str: TEXT,
  email: { ...TEXT, textKind: "email" },
  int: { ...TEXT, parse: "number", textKind: "integer" },
  float: { ...TEXT, parse: "number", textKind: "decimal" },
  bool: { display: "Flag", toInput: "inputFlag", parse: "flag" },
  date: { display: "DateOnly", toInput: "inputText", parse: "text", textKind: "date" },
  datetime: { display: "DateTime", toInput: "inputDateTime", parse: "dateTime", textKind: "datetime-local" },
  // A select of the members; the parser keeps the member's literal type (the client's union).
  enum: { ...TEXT, parse: "choice" },
  json: { display: "Json", toInput: "inputJson", parse: "json" },
  // Cells show nested objects as links (cells.ts); a nested body field is edited as text.
  nested: TEXT,
};
