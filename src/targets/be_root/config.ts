// SPEC's `be_root.config.RootConfig`: what the `be_root` target needs to lay out a new
// backend project (names, the database variable, auth). Every key but `name` has a
// default; parsing fills them all, so the scaffold never recomputes one.

import { z } from "zod";
import { UserTemplatesConfig } from "../../codegen/index.js";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const DOTTED_PACKAGE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
// PEP 508 project names: letters, digits, `.`, `_`, `-`, starting and ending alphanumeric.
const PROJECT_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const ENV_VAR = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Printable text without `"` or `\`: the title goes into Python docstrings and string
// literals, TOML strings and Markdown, none of which then needs escaping.
const TITLE = /^[^\p{Cc}"\\]+$/u;

/** Python's reserved words: none may name a package or module. */
const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
  "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
]);

/** Directories the scaffold itself fills; the package may not be one of them. */
const RESERVED_DIRECTORIES: readonly string[] = ["config", "migrations"];

const isPythonName = (value: string) => IDENTIFIER.test(value) && !PYTHON_KEYWORDS.has(value);

const ModuleName = z
  .string()
  .regex(IDENTIFIER, "must be lowercase snake_case (a-z, 0-9 and _, not starting with a digit)")
  .refine((value) => !PYTHON_KEYWORDS.has(value), { message: "is a Python keyword; pick another name" })
  .meta({ id: "ModuleName", title: "module name", description: "A lowercase snake_case Python module name that is not a keyword (`shop`)." });

const DottedPackage = z
  .string()
  .regex(DOTTED_PACKAGE, 'must be a dotted Python package like "shop.api"')
  .refine((value) => value.split(".").every((part) => !PYTHON_KEYWORDS.has(part)), {
    message: "has a Python keyword as one of its parts",
  })
  .meta({ id: "DottedPackage", title: "dotted package", description: "A dotted Python package (`shop.api`); no part is a keyword." });

/** The Python package a project name suggests: `Shop-Backend` → `shop_backend`. */
export function packageFromName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "_");
}

const RootObject = z
  .strictObject({
    name: z
      .string()
      .regex(PROJECT_NAME, 'must be a Python project name like "shop" or "shop-backend" (letters, digits, ".", "_" and "-")')
      .meta({
        description: "The project's name: `[project].name` in pyproject.toml, and the default title and package.",
        examples: ["shop", "shop-backend"],
      }),
    package: ModuleName.optional().meta({
      description:
        "Top-level Python package holding your models, `main.py` and the generated API; not `config` or `migrations`. " +
        "Required when the name does not give a Python name (`3d-prints`). Default: the name in snake_case " +
        "(`Shop-Backend` → `shop_backend`).",
    }),
    package_prefix: DottedPackage.optional().meta({ description: "Package the `be` target generates into: the starter config's `package_prefix`, imported by `main.py`. Default: `<package>.api`." }),
    module: ModuleName.default("core").meta({
      description: "Python package of the starter config's app: routes are imported from `<package_prefix>.<module>.routes`.",
    }),
    title: z
      .string()
      .regex(TITLE, 'must be non-empty printable text without " or \\')
      .optional()
      .meta({ description: "The API's title (FastAPI, the OpenAPI document, the README); printable text without `\"` or `\\`. Default: the name." }),
    python: z
      .string()
      .regex(/^3\.(1[1-9]|[2-9][0-9])$/, 'must be a Python 3 version from 3.11 on, like "3.12"')
      .default("3.11")
      .meta({ description: 'Oldest Python the project supports: `requires-python = ">=<python>"`; 3.11 or later.' }),
    database_url_env: z
      .string()
      .regex(ENV_VAR, 'must be an environment variable name like "DATABASE_URL" (letters, digits and underscores)')
      .default("DATABASE_URL")
      .meta({ description: "Environment variable holding the async database URL, read by the application (the starter config's `url_env`) and by Alembic." }),
    user_templates: UserTemplatesConfig.optional(),
    auth: z.boolean().default(false).meta({
      description: "JWT authentication: the starter config sets `auth` (secret in `JWT_SECRET`), `main.py` mounts the token endpoint, and " +
        "`<package>/auth.py` holds the credentials check you write.",
    }),
    opa: z.boolean().default(false).meta({
      description:
        "Authorization by an Open Policy Agent server (needs `auth`): the starter config sets `auth.opa` (URL in `OPA_URL`) and " +
        "`opa: true` on its resource, and `policy/authz.rego` holds the policy, with its `opa test` tests in `policy/authz_test.rego`.",
    }),
    files: z.boolean().default(false).meta({
      description:
        "File resources (`resource.files()`, bytes in S3-compatible storage): `botocore`, the S3 client of the generated " +
        "`runtime/files.py`, joins the dependencies, and `.env.example` names the storage's variables.",
    }),
  })
  .meta({
    description: "The config of the `be_root` target: a new backend project around the `be` target. Every key but `name` has a default.",
    examples: [{ name: "shop", auth: true }, { name: "shop", auth: true, opa: true }],
  });

/** The config of the `be_root` target: a new backend project around the `be` target. */
export const RootConfig = RootObject.superRefine((root, ctx) => {
  if (root.opa && !root.auth) {
    ctx.addIssue({ code: "custom", path: ["opa"], message: "needs auth: true, since OPA decides what a signed-in user may do" });
  }
  // A bad name is reported at `name`; a package derived from it would only repeat that.
  if (root.package === undefined && !PROJECT_NAME.test(root.name)) return;
  const derived = packageFromName(root.name);
  if (root.package === undefined && !isPythonName(derived)) {
    ctx.addIssue({
      code: "custom",
      path: ["package"],
      message: `required: the name "${root.name}" does not make a Python package name ("${derived}"); set package`,
    });
    return;
  }
  const pkg = root.package ?? derived;
  if (RESERVED_DIRECTORIES.includes(pkg)) {
    ctx.addIssue({
      code: "custom",
      path: root.package === undefined ? ["name"] : ["package"],
      message: `the package "${pkg}" would share its directory with the scaffold's ${pkg}/; ${root.package === undefined ? "set package" : "pick another name"}`,
    });
  }
}).transform((root) => {
  const pkg = root.package ?? packageFromName(root.name);
  return {
    ...root,
    package: pkg,
    package_prefix: root.package_prefix ?? `${pkg}.api`,
    title: root.title ?? root.name,
  };
});
export type RootConfig = z.output<typeof RootConfig>;
