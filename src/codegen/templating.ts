// Template environment for renderers: nunjucks (the Jinja2 dialect) over an ordered list of
// directories, the first directory holding a name winning, so user templates can override a
// target's. Output is code, never HTML: nothing is escaped, and block tags leave no blank lines.

import nunjucks from "nunjucks";

/**
 * Creates an environment loading templates from `dirs`, earlier directories first.
 * Settings: no autoescaping, `trimBlocks` and `lstripBlocks` on, and printing an undefined or
 * null value (a misspelt variable) is an error naming the template and line.
 *
 * @example const env = createTemplateEnv("my-templates", target.templateDir);
 */
export function createTemplateEnv(...dirs: string[]): nunjucks.Environment {
  return new nunjucks.Environment(new nunjucks.FileSystemLoader(dirs), {
    autoescape: false,
    trimBlocks: true,
    lstripBlocks: true,
    throwOnUndefined: true,
  });
}

/**
 * Renders template `name` with `context` and returns the output exactly, untrimmed.
 *
 * @throws Error naming the template when it is missing or fails to render (the cause is kept).
 * @example renderTemplate(env, "route.py.njk", { name: "Article" });
 */
export function renderTemplate(env: nunjucks.Environment, name: string, context: object): string {
  try {
    return env.render(name, context);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot render template "${name}": ${reason}`, { cause: error });
  }
}
