// String formats shared by the `be` config schemas: Python names, dotted import paths,
// URL paths, environment variable names. Each carries its own error message so a user
// reads what was expected, not a regular expression.

import { z } from "zod";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOTTED = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const PACKAGE = /^([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)?$/;
const SNAKE = /^[a-z_][a-z0-9_]*$/;
const URL_PATH = /^(\/[A-Za-z0-9._~-]+)+$/;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Python's reserved words: a generated `def class(...)` or `import` from `lambda` cannot work. */
const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
  "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
]);

const notKeyword = (value: string) => !PYTHON_KEYWORDS.has(value);

/**
 * A Python identifier that is not a reserved word: it becomes a class attribute, a column,
 * a module or a function parameter in generated code.
 * @example "published_at"
 */
export const PythonName = z
  .string()
  .regex(IDENTIFIER, "must be a Python identifier (letters, digits and underscores, not starting with a digit)")
  .refine(notKeyword, { message: "is a Python keyword; pick another name" });

/** Whether `name` is one of Python's special `__dunder__` names (`__init__` would name a package's own module). */
export function isDunder(name: string): boolean {
  return /^__.*__$/.test(name);
}

/**
 * A lowercase snake_case Python name (file and module names are derived from it).
 * @example "stock_movement"
 */
export const SnakeName = z
  .string()
  .regex(SNAKE, "must be lowercase snake_case (a-z, 0-9 and _, not starting with a digit)")
  .refine(notKeyword, { message: "is a Python keyword; pick another name" })
  .refine((name) => !isDunder(name), { message: "is a special Python name (__…__): it would name a package's own module; pick another name" });

/**
 * An identifier naming an operation entry or its type (`get`, `publish_article`).
 * @example "list_published"
 */
export const Identifier = z
  .string()
  .regex(IDENTIFIER, "must be an identifier (letters, digits and underscores, not starting with a digit)");

const noKeywordPart = (value: string) => value.split(".").every(notKeyword);
const keywordPartMessage = "has a Python keyword as one of its parts";

/**
 * A dotted Python import path with a module and a name: `blog.models.Article`.
 * @example "blog.actions.publish_article"
 */
export const DottedPath = z
  .string()
  .regex(DOTTED, 'must be a dotted import path with a module and a name, like "blog.models.Article"')
  .refine(noKeywordPart, { message: keywordPartMessage });

/**
 * A dotted Python package, or `""` for none.
 * @example "myproject.backend"
 */
export const PackagePath = z
  .string()
  .regex(PACKAGE, 'must be a dotted Python package like "myproject.backend", or ""')
  .refine(noKeywordPart, { message: keywordPartMessage });

/**
 * A URL path: starts with `/`, no trailing `/`, no empty segments, no spaces or braces.
 * @example "/stock-movements"
 */
export const UrlPath = z
  .string()
  .regex(URL_PATH, 'must be a URL path like "/articles": starting with "/", without a trailing "/" or empty segments');

/**
 * Where an app is mounted: `""` (the root) or a URL path.
 * @example "/blog"
 */
export const MountPrefix = z
  .string()
  .regex(/^((\/[A-Za-z0-9._~-]+)+)?$/, 'must be "" or a URL path like "/blog": starting with "/", without a trailing "/"');

/**
 * A hyphenated URL segment.
 * @example "publish-article"
 */
export const Slug = z
  .string()
  .regex(SLUG, 'must be lowercase letters and digits separated by single hyphens, like "publish-article"');

/**
 * The name of an environment variable.
 * @example "DATABASE_URL"
 */
export const EnvVarName = z
  .string()
  .regex(IDENTIFIER, 'must be an environment variable name like "DATABASE_URL" (letters, digits and underscores)');

/** A string that is not empty. */
export const NonEmptyString = z.string().min(1, "must not be empty");
