// The starter files are written as prettier (with its defaults, like the project's
// `.prettierrc.json`) prints them, so a new project passes `npm run format:check` whatever
// its title, prefix or ports make the lines. Files prettier does not know stay as rendered.

import { format } from "prettier";

const PARSERS = new Map([
  [".ts", "typescript"],
  [".tsx", "typescript"],
  [".json", "json"],
  [".md", "markdown"],
  [".html", "html"],
]);

/** `content` as prettier prints it, for the file types above. */
export async function formatFile(path: string, content: string): Promise<string> {
  const parser = PARSERS.get(path.slice(path.lastIndexOf(".")));
  // package.json as npm writes it: prettier's "json-stringify" printer is npm's own layout.
  if (path.endsWith("package.json")) return format(content, { parser: "json-stringify" });
  return parser ? format(content, { parser, filepath: path }) : content;
}
