// Copies non-TypeScript assets (templates, jsonnet stdlib, Python and TypeScript runtime files) from src/ to dist/
// so a built package resolves them at the same relative paths as the sources do under tsx.
import { cpSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const src = join(root, "src");
const dist = join(root, "dist");

function walk(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path);
    // The front end's runtime modules are TypeScript copied into generated projects, not compiled here.
    else if (!path.endsWith(".ts") || path.includes("/fe/runtime/")) cpSync(path, join(dist, relative(src, path)));
  }
}
walk(src);
