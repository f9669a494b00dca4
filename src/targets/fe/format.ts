// Generated TypeScript, TSX and CSS are written as prettier (with its defaults) prints
// them: the front end's `npm run format:check` runs the same pinned prettier, so
// generated files always pass it byte for byte. Other files are left as rendered.

import { format } from "prettier";

const PARSERS = new Map([
  [".ts", "typescript"],
  [".tsx", "typescript"],
  [".css", "css"],
]);

/** `content` as prettier prints it, for the file types above. */
export async function formatFile(path: string, content: string): Promise<string> {
  const extension = path.slice(path.lastIndexOf("."));
  const parser = PARSERS.get(extension);
  return parser ? format(content, { parser, filepath: path }) : content;
}
