// Template environment for renderers: nunjucks (the Jinja2 dialect) over an ordered list of
// directories, the first directory holding a name winning, so user templates can override a
// target's. Output is code, never HTML: nothing is escaped, and block tags leave no blank lines.

import nunjucks from "nunjucks";
import { withCompiledTemplates, writeCompiledTemplates } from "./compiled-templates.js";

/**
 * Creates an environment loading templates from `dirs`, earlier directories first.
 * Settings: no autoescaping, `trimBlocks` and `lstripBlocks` on, and printing an undefined or
 * null value (a misspelt variable) is an error naming the template and line. A directory with
 * templates compiled ahead of time ({@link precompileTemplates}) serves them while unchanged.
 *
 * @example const env = createTemplateEnv("my-templates", target.templateDir);
 */
export function createTemplateEnv(...dirs: string[]): nunjucks.Environment {
  return new nunjucks.Environment(withCompiledTemplates(new nunjucks.FileSystemLoader(dirs), dirs), {
    autoescape: false,
    trimBlocks: true,
    lstripBlocks: true,
    throwOnUndefined: true,
  });
}

/**
 * Compiles every `.njk` template under `dir` ahead of time, into `<dir>.compiled.json`, so no
 * run compiles them again (`npm run build` does this for the built-in targets; a target
 * package may do it for its own). Returns how many templates it compiled.
 * @example precompileTemplates(target.templateDir);
 */
export function precompileTemplates(dir: string): number {
  return writeCompiledTemplates(dir, createTemplateEnv(dir));
}

/**
 * Renders template `name` with `context` and returns the output exactly, untrimmed.
 *
 * @throws Error naming the template when it is missing or fails to render (the cause is kept).
 * @example renderTemplate(env, "route.py.njk", { name: "Article" });
 */
export function renderTemplate(env: nunjucks.Environment, name: string, context: object): string {
  try {
    return templateOf(env, name).render(context);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot render template "${name}": ${reason}`, { cause: error });
  }
}

// Compiled templates by environment and name: `env.render` looks each name up through its
// loaders and two callbacks on every call, and a large run renders tens of thousands. Each run
// makes its own environment, so it never sees another run's templates.
const compiled = new WeakMap<nunjucks.Environment, Map<string, nunjucks.Template>>();

function templateOf(env: nunjucks.Environment, name: string): nunjucks.Template {
  let templates = compiled.get(env);
  if (!templates) compiled.set(env, (templates = new Map()));
  let template = templates.get(name);
  if (!template) templates.set(name, (template = env.getTemplate(name)));
  return template;
}
