// Which catalogue the pages show: the language the config pins, else the first of the browser's
// languages (navigator.languages) that has one, else English. The document's `lang` follows, so
// screen readers pronounce the pages in their language.

import { type Translations, pickLanguage, setMessages } from "./messages";

/** Chooses the pages' language once, before the first render; `pinned` must have a catalogue. */
export function chooseLanguage<T extends Translations>(translations: T, pinned?: "en" | Extract<keyof T, string>): void {
  const wanted = pinned !== undefined ? [pinned] : navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  const { tag, messages } = pickLanguage(translations, wanted);
  setMessages(messages);
  document.documentElement.lang = tag;
}
