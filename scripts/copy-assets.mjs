// Copies non-TypeScript assets (templates, jsonnet stdlib, Python and TypeScript runtime files) from src/ to each
// directory named on the command line (default dist/), so built code resolves them at the same relative paths as
// the sources do under tsx.
import { cpSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const src = join(root, "src");
const destinations = process.argv.length > 2 ? process.argv.slice(2).map((dir) => resolve(root, dir)) : [join(root, "dist")];

function walk(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path);
    // The front end's runtime modules are TypeScript copied into generated projects, not compiled here.
    else if (!path.endsWith(".ts") || path.includes("/fe/runtime/")) for (const destination of destinations) cpSync(path, join(destination, relative(src, path)));
  }
}
walk(src);
