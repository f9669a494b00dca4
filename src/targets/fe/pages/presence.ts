// How a form sends an empty input, decided per field from the schemas: the same three
// cases as the runtime's `DraftParser` (src/targets/fe/runtime/draft.ts).

import type { PageField } from "./model.js";

/** `required`: an error; `optional`: left out (the backend's default applies); `nullable`: null. */
export type Presence = "required" | "optional" | "nullable";

/** In a create body or action params: the schema's `required` and nullability decide. */
export function createPresence(field: PageField): Presence {
  if (field.nullable) return "nullable";
  return field.required ? "required" : "optional";
}

/**
 * In a partial update, every field is optional and the schema marks it nullable; what
 * may really be cleared is what the read schema shows as nullable.
 */
export function updatePresence(field: PageField, read: PageField | undefined): Presence {
  if (read) return read.nullable ? "nullable" : "required";
  return field.nullable ? "nullable" : "optional";
}
