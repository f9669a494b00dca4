// Case conversions for identifiers written in configs (`StockMovement`, `publish_article`).
// A `Name` is immutable; every form is derived from `raw` alone, so the same raw value
// always yields the same class, module, file and URL names.

import { ValueError } from "./errors.js";

/** Splits before a capital that follows a lowercase letter or digit (`stockMovement`, `Article2Tag`). */
const LOWER_TO_UPPER = /([a-z0-9])([A-Z])/g;
/** Splits the end of an acronym run from the capitalised word after it (`HTTPServer` → `HTTP_Server`). */
const ACRONYM_TO_WORD = /([A-Z]+)([A-Z][a-z])/g;

// Conversions are pure functions of `raw` and a build asks for the same names many times.
const pascalCache = new Map<string, string>();
const snakeCache = new Map<string, string>();

/**
 * An identifier from a config, in PascalCase or snake_case, with its derived forms.
 *
 * @example
 * const name = new Name("StockMovement");
 * name.snake; // "stock_movement"
 * name.slug; // "stock-movement"
 * name.suffixed("Read"); // "StockMovementRead"
 */
export class Name {
  /** The identifier exactly as written. */
  readonly raw: string;

  /** @param raw - a PascalCase or snake_case identifier, such as `StockMovement` or `stock_movement`. */
  constructor(raw: string) {
    this.raw = raw;
  }

  /**
   * PascalCase form. A raw value with no underscore and a leading capital is returned as is,
   * so acronyms survive (`HTTPServer` stays `HTTPServer`).
   *
   * @example new Name("publish_article").pascal; // "PublishArticle"
   */
  get pascal(): string {
    let pascal = pascalCache.get(this.raw);
    if (pascal === undefined) {
      pascal = this.raw.includes("_") ? this.raw.split("_").map(capitalize).join("") : capitalize(this.raw);
      pascalCache.set(this.raw, pascal);
    }
    return pascal;
  }

  /**
   * Fully lowercased with no separator, so both spellings of a name agree.
   *
   * @example new Name("StockMovement").lower; // "stockmovement"
   * @example new Name("stock_movement").lower; // "stockmovement"
   */
  get lower(): string {
    return this.raw.replaceAll("_", "").toLowerCase();
  }

  /**
   * snake_case form. Word boundaries become underscores and an acronym run stays one word;
   * a raw value that already contains underscores is only lowercased.
   *
   * @example new Name("HTTPServer").snake; // "http_server"
   * @example new Name("APIKey").snake; // "api_key"
   */
  get snake(): string {
    let snake = snakeCache.get(this.raw);
    if (snake === undefined) {
      snake = this.raw.includes("_") ? this.raw.toLowerCase() : this.raw.replace(ACRONYM_TO_WORD, "$1_$2").replace(LOWER_TO_UPPER, "$1_$2").toLowerCase();
      snakeCache.set(this.raw, snake);
    }
    return snake;
  }

  /**
   * Hyphenated form of {@link Name.snake}, for URLs and file names.
   *
   * @example new Name("PublishArticle").slug; // "publish-article"
   */
  get slug(): string {
    return this.snake.replaceAll("_", "-");
  }

  /**
   * PascalCase form with `suffix` appended as given.
   *
   * @example new Name("article").suffixed("Create"); // "ArticleCreate"
   */
  suffixed(suffix: string): string {
    return this.pascal + suffix;
  }

  /** The raw identifier, so a `Name` interpolates as written. */
  toString(): string {
    return this.raw;
  }

  /**
   * Splits a dotted import path into its module path and the `Name` of its last segment.
   *
   * @throws ValueError when the path has fewer than two parts (no module or no name).
   * @example Name.fromDotted("blog.models.Author"); // ["blog.models", Name("Author")]
   */
  static fromDotted(path: string): [modulePath: string, name: Name] {
    const dot = path.lastIndexOf(".");
    const modulePath = dot < 0 ? "" : path.slice(0, dot);
    const last = path.slice(dot + 1);
    // `.Author` and `blog.` are as unusable as `Author`: each lacks a module or a name.
    if (modulePath === "" || last === "") {
      throw new ValueError(`expected a dotted path with a module and a name (like "pkg.module.Name"), got "${path}"`);
    }
    return [modulePath, new Name(last)];
  }

  /**
   * Drops the last `levels` segments of a dotted path; returns what remains ("" at worst).
   *
   * @param options.levels - how many trailing segments to drop. @default 1
   * @throws ValueError when `levels` is not a non-negative integer.
   * @example Name.parentPath("blog.models.Author"); // "blog.models"
   * @example Name.parentPath("blog.models.Author", { levels: 5 }); // ""
   */
  static parentPath(dotted: string, { levels = 1 }: { levels?: number } = {}): string {
    if (!Number.isInteger(levels) || levels < 0) {
      throw new ValueError(`levels must be a non-negative integer, got ${levels}`);
    }
    if (dotted === "") return "";
    const parts = dotted.split(".");
    return parts.slice(0, Math.max(0, parts.length - levels)).join(".");
  }
}

/**
 * Joins import path parts with `.`, the prefix first when non-empty; empty parts are skipped.
 *
 * @example prefixImport("myproj", "blog", "models"); // "myproj.blog.models"
 * @example prefixImport("", "blog", "models"); // "blog.models"
 */
export function prefixImport(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].filter((part) => part !== "").join(".");
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
