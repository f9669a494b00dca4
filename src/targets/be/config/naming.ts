// Names the `be` config derives from a model class when the user gives none: the
// resource's snake name and its route prefix, the plural slug of the class.

import { Name } from "../../../codegen/index.js";

/**
 * English plural of a lowercase word: consonant + `y` → `ies`; `s`, `x`, `z`, `ch`, `sh` → `es`;
 * otherwise `s`.
 * @example pluralize("category") // "categories"
 * @example pluralize("address") // "addresses"
 */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * `words` with its indefinite article, lowercase; for messages, docstrings and comments.
 * @example withArticle("article") // "an article"
 * @example withArticle("tag") // "a tag"
 * @example withArticle("uuid") // "a uuid"
 */
export function withArticle(words: string): string {
  // A leading "u" that sounds like "you" (uuid, user, unique) takes "a".
  return /^(?!uu|u[^aeiou][aeiouy])[aeiou]/i.test(words) ? `an ${words}` : `a ${words}`;
}

/**
 * A resource's default name: the snake-cased model class.
 * @example defaultResourceName("inventory.models.StockMovement") // "stock_movement"
 */
export function defaultResourceName(model: string): string {
  return Name.fromDotted(model)[1].snake;
}

/**
 * A resource's default route prefix: `/` and the plural slug of the model class.
 * @example defaultRoutePrefix("inventory.models.StockMovement") // "/stock-movements"
 */
export function defaultRoutePrefix(model: string): string {
  const words = Name.fromDotted(model)[1].snake.split("_").filter((word) => word !== "");
  words.push(pluralize(words.pop() ?? ""));
  return `/${words.join("-")}`;
}
