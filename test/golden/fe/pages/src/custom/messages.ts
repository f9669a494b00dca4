// Yours: codegen writes this file once and never touches it again. The pages speak English
// (src/generated/runtime/messages.ts) unless the browser prefers a language listed here, or
// config/fe.jsonnet pins one (`pages.language`).
//
// - Add a language: a catalogue typed `Messages`, under its language tag, e.g.
//   import type { Messages } from "../generated/runtime/messages";
//   const fr: Messages = { skipToContent: "Aller au contenu", … };
//   export const translations = { fr } satisfies Translations;
//   `Messages` is derived from the English catalogue: a translation that misses a message, or
//   whose message takes other parameters, fails `tsc`; a message added in a new version too.
import type { Translations } from "../generated/runtime/messages";

export const translations = {} satisfies Translations;
