// `npm run build`: a clean dist/ from src/. tsc type-checks and compiles every module to .build/js
// (declarations straight to dist/), the assets are copied beside both, and bundle.mjs bundles the
// compiled modules into dist/ (why: see there). .build/js stays a complete unbundled tree, which
// `bench/render.ts --dist` can time module by module. Last, the built-in targets' templates are
// compiled ahead of time (codegen/compiled-templates.ts), by the engine just built, and the hash of
// everything in dist/ is written there for runs to read (codegen/input-hash.ts, codeTreeHash).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const root = new URL("..", import.meta.url);
for (const dir of ["dist", ".build"]) rmSync(new URL(dir, root), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const run = (script, ...args) => execFileSync(process.execPath, [script, ...args], { cwd: root, stdio: "inherit" });
run(tsc, "-p", "tsconfig.build.json");
run(new URL("copy-assets.mjs", import.meta.url).pathname, "dist", ".build/js");
run(new URL("bundle.mjs", import.meta.url).pathname);

const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const { precompileTemplates } = await import(new URL("dist/codegen/index.js", root).href);
for (const specifier of Object.values(manifest.codegen["codegen.targets"])) {
  const [module, exportName] = specifier.split("#");
  const { [exportName]: target } = await import(new URL(module, root).href);
  precompileTemplates(target.templateDir);
}

const { CODE_HASH_FILE, computeCodeTreeHash } = await import(new URL(".build/js/codegen/input-hash.js", root).href);
writeFileSync(new URL(`dist/${CODE_HASH_FILE}`, root), `${computeCodeTreeHash(new URL("dist", root).pathname)}\n`);
