// The Markdown list of a target's templates and the variables each reads, generated from the
// template files themselves (`npm run docs`), so the list of what an override may use cannot
// drift from the templates it overrides.

import { builtInTemplateVariables } from "./user-templates.js";
import type { Target } from "./target.js";

/**
 * One Markdown section for `target`: a row per template, with each variable and the
 * attributes the built-in reads of it.
 * @example templateReference(be) // "## be\n\n| template | variables |\n…"
 */
export function templateReference(target: Target): string {
  const rows = [...builtInTemplateVariables(target)].map(([name, variables]) => {
    const listed = variables.map((variable) =>
      variable.attributes.length === 0 ? `\`${variable.name}\`` : `\`${variable.name}\` (${variable.attributes.map((attribute) => `.${attribute}`).join(", ")})`,
    );
    return `| \`${name}\` | ${listed.join(", ") || "none"} |`;
  });
  return [`## ${target.name}`, "", `${rows.length} templates, under \`${target.name}\`'s template directory.`, "", "| template | variables |", "|---|---|", ...rows, ""].join(
    "\n",
  );
}
