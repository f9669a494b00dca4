// String formats shared by the `be` config schemas: Python names, dotted import paths,
// URL paths, environment variable names. Each carries its own error message so a user
// reads what was expected, not a regular expression, and a `title` naming the format in
// the JSON Schema and the config reference.

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

export const PythonName = z
  .string()
  .regex(IDENTIFIER, "must be a Python identifier (letters, digits and underscores, not starting with a digit)")
  .refine(notKeyword, { message: "is a Python keyword; pick another name" })
  .meta({
    id: "PythonName",
    title: "Python name",
    description: "A Python identifier that is not a keyword: it becomes an attribute, a column, a module or a parameter in generated code.",
  });

/**
 * Lowercase names that generated schema modules bind and read in the class bodies where a
 * field's attribute is bound: the builtins and modules of annotations (`int`, `uuid.UUID`,
 * `datetime`), and the column rules of a field (`column_rules(Article.title)`). A field
 * named like one would shadow it for every field after it. Names with a capital first
 * letter are refused as a rule (classes: imports, models, schemas), so none is listed.
 */
export const SCHEMA_SCOPE_NAMES: ReadonlySet<string> = new Set([
  "bool", "bytes", "column_rules", "date", "datetime", "dict", "float", "int", "list", "set", "str", "tuple", "uuid",
]);

const FIELD_NAME_RULES: readonly [RegExp, string][] = [
  [/^[^_]/, 'must not start with "_": Pydantic keeps such names out of a model\'s fields (and __…__ names are Python\'s own)'],
  [/^[^A-Z]/, "must not start with a capital letter: generated modules name classes so (Annotated, Field, your models), and a field named like one would shadow it"],
  [
    new RegExp(`^(?!(?:${[...SCHEMA_SCOPE_NAMES].join("|")})$)`),
    `is a name generated schemas read in their annotations (${[...SCHEMA_SCOPE_NAMES].join(", ")}); a field named so would shadow it: pick another name`,
  ],
];

/** Why `name` cannot name a field (beyond being a Python name), or undefined when it can. */
export function fieldNameProblem(name: string): string | undefined {
  return FIELD_NAME_RULES.find(([rule]) => !rule.test(name))?.[1];
}

// Patterns, not a refinement: the JSON Schema that editors check configs with carries them too.
export const FieldName = FIELD_NAME_RULES.reduce((schema, [rule, message]) => schema.regex(rule, message), PythonName).meta({
  id: "FieldName",
  title: "field name",
  description:
    "A Python identifier that is not a keyword, starts with a lowercase letter, and is none of the names generated schemas read " +
    "(`int`, `str`, `float`, `bool`, `bytes`, `dict`, `list`, `set`, `tuple`, `date`, `datetime`, `uuid`, `column_rules`).",
});

/** Whether `name` is one of Python's special `__dunder__` names (`__init__` would name a package's own module). */
export function isDunder(name: string): boolean {
  return /^__.*__$/.test(name);
}

export const SnakeName = z
  .string()
  .regex(SNAKE, "must be lowercase snake_case (a-z, 0-9 and _, not starting with a digit)")
  .refine(notKeyword, { message: "is a Python keyword; pick another name" })
  .refine((name) => !isDunder(name), { message: "is a special Python name (__…__): it would name a package's own module; pick another name" })
  .meta({
    id: "SnakeName",
    title: "snake_case name",
    description: "A lowercase snake_case Python name that is not a keyword; file and module names derive from it.",
  });

export const Identifier = z
  .string()
  .regex(IDENTIFIER, "must be an identifier (letters, digits and underscores, not starting with a digit)")
  .meta({
    id: "Identifier",
    title: "identifier",
    description: "Letters, digits and underscores, not starting with a digit.",
  });

const noKeywordPart = (value: string) => value.split(".").every(notKeyword);
const keywordPartMessage = "has a Python keyword as one of its parts";

export const DottedPath = z
  .string()
  .regex(DOTTED, 'must be a dotted import path with a module and a name, like "blog.models.Article"')
  .refine(noKeywordPart, { message: keywordPartMessage })
  .meta({
    id: "DottedPath",
    title: "dotted path",
    description: "A Python import path with a module and a name (`blog.models.Article`); no part is a keyword.",
  });

/**
 * Whether `name` is spelled as a class whose generated names derive from it: generated code
 * imports a model by the PascalCase form of its name (`Name.pascal`), so only a name equal to
 * that form (`Article`, `StockMovement`, `HTTPLog`) imports what the config names.
 */
export function isClassName(name: string): boolean {
  return /^[A-Z][A-Za-z0-9]*$/.test(name);
}

export const ModelPath = DottedPath.refine((value) => isClassName(value.slice(value.lastIndexOf(".") + 1)), {
  error: (issue) => {
    const name = String(issue.input).split(".").pop();
    return `must end in a class name like "Article" (a capital first letter, then letters and digits): generated code imports the model by that name, and "${name}" is none`;
  },
}).meta({
  id: "ModelPath",
  title: "model path",
  description: "The dotted path of a model class: its module, then the class (`blog.models.Article`), spelled in PascalCase.",
});

export const PackagePath = z
  .string()
  .regex(PACKAGE, 'must be a dotted Python package like "myproject.backend", or ""')
  .refine(noKeywordPart, { message: keywordPartMessage })
  .meta({
    id: "PackagePath",
    title: "dotted package",
    description: 'A dotted Python package (`myproject.backend`), or `""` for none.',
  });

export const UrlPath = z
  .string()
  .regex(URL_PATH, 'must be a URL path like "/articles": starting with "/", without a trailing "/" or empty segments')
  .meta({
    id: "UrlPath",
    title: "URL path",
    description: "Starts with `/`; no trailing `/`, no empty segments, no spaces or braces (`/stock-movements`).",
  });

export const MountPrefix = z
  .string()
  .regex(/^((\/[A-Za-z0-9._~-]+)+)?$/, 'must be "" or a URL path like "/blog": starting with "/", without a trailing "/"')
  .meta({
    id: "MountPrefix",
    title: "mount prefix",
    description: '`""` (the root) or a URL path (`/blog`).',
  });

export const Slug = z
  .string()
  .regex(SLUG, 'must be lowercase letters and digits separated by single hyphens, like "publish-article"')
  .meta({
    id: "Slug",
    title: "slug",
    description: "Lowercase letters and digits in words joined by single hyphens (`publish-article`).",
  });

export const EnvVarName = z
  .string()
  .regex(IDENTIFIER, 'must be an environment variable name like "DATABASE_URL" (letters, digits and underscores)')
  .meta({
    id: "EnvVarName",
    title: "environment variable",
    description: "The name of an environment variable: letters, digits and underscores (`DATABASE_URL`).",
  });

export const NonEmptyString = z.string().min(1, "must not be empty").meta({ title: "non-empty string" });

/** Default of `max_body_size`: 1 MiB. */
export const DEFAULT_MAX_BODY_SIZE = 1_048_576;

/**
 * `max_body_size` of an operation entry, a resource or an app (`owner`), in bytes; `fallback`
 * says where the value comes from when it is not set.
 */
export function maxBodySizeAt(owner: string, fallback: string): z.ZodOptional<z.ZodInt> {
  return z
    .int()
    .min(1, "must be a positive number of bytes")
    .optional()
    .meta({
      description: `Largest request body, in bytes, of ${owner}; a longer one is answered 413 before it is read further. Default: ${fallback} \`max_body_size\`.`,
      examples: [10_485_760],
    });
}
