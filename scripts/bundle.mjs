// Bundles the compiled JavaScript (.build/js, from tsc) into dist/. Node 20 loads ES modules
// one by one through its JavaScript loader, about half a millisecond each: unbundled, a run
// loaded some 285 modules before doing any work. Bundled, the same code is a few files.
//
// Every path other code may import stays a file of its own, at the path it has always had:
// the `codegen` command, the package's exports, every entry point the package.json's
// "codegen" field names (targets, operations, import formatters) and the targets' formatter
// modules. They are bundled together with code splitting, so the code
// they share is one module in dist/chunks/: a plugin that imports `codegen-kit` gets the very
// classes the command runs with. Dependencies stay external (installed packages, loaded as
// ever), except the three every run loads (BUNDLED below): zod, whose 95 modules were most of
// the remaining count and which keeps its one registry of metadata on `globalThis`, so a
// plugin's own zod and ours share it; and nunjucks and commander, CommonJS packages.
//
// `import.meta.url` is a module's own location, which bundling would move: each module's is
// replaced by its location before bundling (`dist/<its path>`), computed from the file it
// lands in.
import { readFileSync, rmSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(new URL("..", import.meta.url).pathname);
const compiled = path.join(root, ".build", "js");
const dist = path.join(root, "dist");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

/** `dist/x/y.js` (a path the package names) as the compiled module it is built from. */
function compiledOf(distPath) {
  const relative = path.relative(dist, path.resolve(root, distPath));
  if (relative.startsWith("..") || !relative.endsWith(".js")) throw new Error(`bundle: ${distPath} is not a module under dist/`);
  return path.join(compiled, relative);
}

function entryPoints() {
  const named = [manifest.bin.codegen];
  for (const target of Object.values(manifest.exports)) if (typeof target === "object" && target.default) named.push(target.default);
  for (const group of Object.values(manifest.codegen)) for (const specifier of Object.values(group)) named.push(specifier.split("#")[0]);
  // Imported by URL at run time: each target's formatter module.
  for (const target of Object.values(manifest.codegen["codegen.targets"])) named.push(path.posix.join(path.posix.dirname(target.split("#")[0]), "format.js"));
  return [...new Set(named.map(compiledOf))].sort();
}

// Bundled rather than loaded from node_modules: zod (95 ES modules), and the two CommonJS
// packages every run loads, whose files Node's CommonJS loader would otherwise resolve, read and
// wrap one by one (nunjucks 23 modules, commander 6).
const BUNDLED = new Set(["zod", "nunjucks", "commander"]);
// Optional packages nunjucks requires only for features we do not use (watching templates).
const NEVER_INSTALLED = ["chokidar", "fsevents"];

// A stand-in for the dist/ directory's URL, resolved per output file once esbuild has placed the code.
const DIST_URL = "__codegenDistUrl";

const ownLocation = {
  name: "own-location",
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(compiled + path.sep)) return undefined;
      const location = path.relative(compiled, args.path).split(path.sep).join("/");
      const source = await readFile(args.path, "utf8");
      return { contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(location)}, ${DIST_URL}).href`), loader: "js" };
    });
  },
};

// zod's namespace re-exports its messages in 64 languages (370 kB, a fifth of what a run
// parses); zod itself uses English only unless told otherwise, and codegen never does. The
// bundled zod's `locales` holds English alone; a plugin's own zod is untouched.
const englishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return { path: path.join(path.dirname(args.importer), args.path.replace(/index\.js$/, "en.js")), namespace: "zod-locales" };
    });
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

const result = await esbuild.build({
  entryPoints: entryPoints(),
  outbase: compiled,
  outdir: dist,
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: [...Object.keys(manifest.dependencies).filter((name) => !BUNDLED.has(name)), ...NEVER_INSTALLED],
  plugins: [ownLocation, englishOnly],
  // The CommonJS packages require Node's built-in modules; an ES module has no `require` of its own.
  banner: { js: 'import { createRequire as __codegenCreateRequire } from "node:module";\nconst require = __codegenCreateRequire(import.meta.url);' },
  write: false,
  logLevel: "warning",
});

// Stale modules of an earlier build must not linger beside the new ones.
rmSync(path.join(dist, "chunks"), { recursive: true, force: true });
for (const file of result.outputFiles) {
  const up = path.relative(path.dirname(file.path), dist).split(path.sep).join("/");
  const distUrl = `new URL(${JSON.stringify(up === "" ? "./" : `${up}/`)}, import.meta.url)`;
  await mkdir(path.dirname(file.path), { recursive: true });
  await writeFile(file.path, file.text.replaceAll(DIST_URL, distUrl));
}
