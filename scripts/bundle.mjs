// Bundles the compiled JavaScript (.build/js, from tsc) into dist/ as one script that V8 can
// compile from its code cache. Node 20 loads ES modules one by one through its JavaScript
// loader and compiles each afresh on every run: a `generate` of 10 resources spent a fifth of
// its start-up compiling some 27 modules. Node 20 keeps compiled code only for a script
// (`vm.Script`'s cachedData), not for an ES module, so:
//
// - dist/codegen-kit.bundle.js holds every module of the package, as one function expression
//   (esbuild's CommonJS output, wrapped). A module runs when first used: what a run does not
//   need (dev, watch, the other targets) is compiled lazily and never run.
// - dist/load-bundle.js (written from load-bundle.mjs) runs that script once per process, with
//   V8's code cache when the `codegen` command runs it (see there).
// - Every path other code may import keeps an ES module of its own, which takes its exports from
//   the bundle: the package's exports, every entry point the package.json's "codegen" field names
//   (targets, operations, import formatters), the targets' formatter modules, and cli-main.js,
//   which the command loads. So a class exists once: a plugin that imports `codegen-kit` gets the
//   very classes the command runs with.
// - dist/cli.js and cli-v8-flags.js are tsc's output as it is: the command sets V8's flags
//   before the bundle compiles, as the cache holds code for one set of flags.
//
// Dependencies stay external (installed packages, loaded as ever), except the three every run
// loads (BUNDLED below). In a script, an installed package can only be imported dynamically,
// through the loader's import(): each of our modules' `import(…)` of anything but one of our
// files is rewritten to call it, and the build fails on any other import of an external
// package or any `import(` left in the bundle.
//
// `import.meta.url` is a module's own location, which bundling would move: each module's is
// replaced by its location (`dist/<its path>`) under the bundle's directory.
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import * as esbuild from "esbuild";
import ts from "typescript";

const root = path.resolve(new URL("..", import.meta.url).pathname);
const compiled = path.join(root, ".build", "js");
const dist = path.join(root, "dist");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

const BUNDLE = "codegen-kit.bundle.js";
const LOADER = "load-bundle.js";
// The command's first modules, copied as tsc wrote them: cli.js imports cli-main.js, an entry.
const LAUNCHER = ["cli.js", "cli-v8-flags.js"];

/** `dist/x/y.js` (a path the package names) as its path relative to dist/. */
function entryName(distPath) {
  const relative = path.relative(dist, path.resolve(root, distPath)).split(path.sep).join("/");
  if (relative.startsWith("..") || !relative.endsWith(".js")) throw new Error(`bundle: ${distPath} is not a module under dist/`);
  return relative;
}

/** Every module imported by its path: the names the bundle's entries table has. */
function entryNames() {
  const named = ["dist/cli-main.js"];
  for (const target of Object.values(manifest.exports)) if (typeof target === "object" && target.default) named.push(target.default);
  for (const group of Object.values(manifest.codegen)) for (const specifier of Object.values(group)) named.push(specifier.split("#")[0]);
  // Imported by URL at run time: each target's formatter module.
  for (const target of Object.values(manifest.codegen["codegen.targets"])) named.push(path.posix.join(path.posix.dirname(target.split("#")[0]), "format.js"));
  return [...new Set(named.map(entryName))].sort();
}

// Bundled rather than loaded from node_modules: zod (95 ES modules), and the two CommonJS
// packages every run loads, whose files Node's CommonJS loader would otherwise resolve, read and
// wrap one by one (nunjucks 23 modules, commander 6).
const BUNDLED = new Set(["zod", "nunjucks", "commander"]);
// Optional packages nunjucks requires only for features we do not use (watching templates).
const NEVER_INSTALLED = ["chokidar", "fsevents"];
const EXTERNAL = [...Object.keys(manifest.dependencies).filter((name) => !BUNDLED.has(name)), ...NEVER_INSTALLED];

// The script's parameters: the dist/ directory's URL, and the loader's import().
const DIST_URL = "__codegenDistUrl";
const IMPORT = "__codegenImport";

/** `import(x)` calls in `source` whose `x` is not a relative path to one of our modules. */
function foreignImports(source, file) {
  const found = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (!(specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith("."))) found.push(node.expression);
    }
    if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) throw new Error(`bundle: ${file} uses import.meta`);
    ts.forEachChild(node, visit);
  };
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  visit(sourceFile);
  return found.map((node) => ({ start: node.getStart(sourceFile), end: node.end }));
}

const ownModules = {
  name: "own-modules",
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(compiled + path.sep)) return undefined;
      const location = path.relative(compiled, args.path).split(path.sep).join("/");
      let source = readFileSync(args.path, "utf8").replaceAll("import.meta.url", `new URL(${JSON.stringify(location)}, ${DIST_URL}).href`);
      if (source.includes("import(")) {
        for (const { start, end } of foreignImports(source, args.path).reverse()) source = source.slice(0, start) + IMPORT + source.slice(end);
      }
      return { contents: source, loader: "js" };
    });
  },
};

// zod's namespace re-exports its messages in 64 languages (370 kB, a fifth of what a run
// parsed); zod itself uses English only unless told otherwise, and codegen never does. The
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

const names = entryNames();

// The entries table: each entry module's exports, its module run on first use.
const table = {
  name: "entries-table",
  setup(build) {
    build.onResolve({ filter: /^entries-table$/ }, () => ({ path: "entries-table", namespace: "entries-table" }));
    build.onLoad({ filter: /.*/, namespace: "entries-table" }, () => ({
      contents: `export const entries = {\n${names.map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(path.join(compiled, name))}),`).join("\n")}\n};\n`,
      resolveDir: compiled,
      loader: "js",
    }));
  },
};

const bundled = await esbuild.build({
  entryPoints: ["entries-table"],
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  plugins: [table, ownModules, englishOnly],
  metafile: true,
  write: false,
  outfile: path.join(dist, BUNDLE),
  logLevel: "warning",
});

const [output] = bundled.outputFiles;
for (const imported of Object.values(bundled.metafile.outputs)[0].imports) {
  const builtin = imported.path.startsWith("node:") || builtinModules.includes(imported.path);
  if (imported.external && !builtin && !NEVER_INSTALLED.includes(imported.path)) throw new Error(`bundle: ${imported.path} is imported statically; a script can only import it with import()`);
}
// ASCII only, so the loader reads it as Latin-1, which costs a fraction of decoding UTF-8:
// esbuild escapes every other character in code, and the comments it keeps get \u escapes.
const ascii = output.text.replace(/[^\0-\x7f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
const script = `(function (exports, require, module, ${DIST_URL}, ${IMPORT}) {\n"use strict";\n${ascii}})\n`;
for (const left of foreignImports(script, BUNDLE)) throw new Error(`bundle: an import() is left in the bundle: ${script.slice(left.start, left.start + 80)}`);

// The exports of each entry, for its ES module: what esbuild finds bundling it as one.
const shapes = await esbuild.build({
  entryPoints: names.map((name) => path.join(compiled, name)),
  outbase: compiled,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  packages: "external",
  metafile: true,
  write: false,
  logLevel: "warning",
});
const exportsOf = new Map();
for (const meta of Object.values(shapes.metafile.outputs)) {
  if (meta.entryPoint) exportsOf.set(path.relative(compiled, path.resolve(root, meta.entryPoint)).split(path.sep).join("/"), meta.exports);
}

// Stale modules of an earlier build must not linger beside the new ones.
rmSync(path.join(dist, "chunks"), { recursive: true, force: true });
writeFileSync(path.join(dist, BUNDLE), script);
const bundleHash = createHash("sha256").update(script).digest("hex").slice(0, 16);
const loader = readFileSync(new URL("load-bundle.mjs", import.meta.url), "utf8").replace("@BUNDLE_HASH@", bundleHash).replace("@VERSION@", manifest.version);
writeFileSync(path.join(dist, LOADER), loader);
for (const name of names) {
  const exported = exportsOf.get(name);
  if (!exported) throw new Error(`bundle: no exports found for ${name}`);
  const up = path.posix.relative(path.posix.dirname(name), LOADER);
  const lines = [`import { bundledModule } from ${JSON.stringify(up.startsWith(".") ? up : `./${up}`)};`, `const module = bundledModule(${JSON.stringify(name)});`];
  const named = exported.filter((exportName) => exportName !== "default");
  if (named.length > 0) lines.push(`export const { ${named.join(", ")} } = module;`);
  if (exported.includes("default")) lines.push("export default module.default;");
  mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
  writeFileSync(path.join(dist, name), `${lines.join("\n")}\n`);
}
for (const file of LAUNCHER) copyFileSync(path.join(compiled, file), path.join(dist, file));
