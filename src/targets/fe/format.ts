// Generated TypeScript, TSX and CSS are written as prettier (with its defaults) prints
// them: the front end's `npm run format:check` runs the same pinned prettier, so
// generated files always pass it byte for byte. Other files are left as rendered.

// Imported with the first file it formats: the built package runs as one script, which can
// import an installed package only dynamically (scripts/bundle.mjs).
let prettier: Promise<typeof import("prettier")> | undefined;

const PARSERS = new Map([
  [".ts", "typescript"],
  [".tsx", "typescript"],
  [".css", "css"],
]);

/** `content` as prettier prints it, for the file types above. */
export async function formatFile(path: string, content: string): Promise<string> {
  const extension = path.slice(path.lastIndexOf("."));
  const parser = PARSERS.get(extension);
  if (!parser) return content;
  const { format } = await (prettier ??= import("prettier"));
  return format(content, { parser, filepath: path });
}
