// The starter files are written as prettier (with its defaults, like the project's
// `.prettierrc.json`) prints them, so a new project passes `npm run format:check` whatever
// its title, prefix or ports make the lines. Files prettier does not know stay as rendered.

// Imported with the first file it formats: the built package runs as one script, which can
// import an installed package only dynamically (scripts/bundle.mjs).
let prettier: Promise<typeof import("prettier")> | undefined;

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
  if (!parser && !path.endsWith("package.json")) return content;
  const { format } = await (prettier ??= import("prettier"));
  // package.json as npm writes it: prettier's "json-stringify" printer is npm's own layout.
  if (path.endsWith("package.json")) return format(content, { parser: "json-stringify" });
  return parser ? format(content, { parser, filepath: path }) : content;
}
