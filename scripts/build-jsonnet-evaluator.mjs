// `npm run build:jsonnet`: builds codegen's jsonnet evaluator (native/jsonnet, rsjsonnet from
// crates.io) for WebAssembly and writes, into src/codegen/:
//   jsonnet-evaluator.wasm           the module jsonnet-evaluate.mjs runs
//   jsonnet-evaluator.licenses.txt   the licences of every crate compiled into it
// and native/jsonnet/built.json, the hashes of the sources and of the module they made, which
// test/codegen/jsonnet-evaluator.test.ts checks. The module is committed: installing or testing
// codegen needs no Rust. Rebuilding needs cargo and the target: `rustup target add wasm32-wasip1`.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = new URL("..", import.meta.url).pathname;
const crate = path.join(root, "native", "jsonnet");
const TARGET = "wasm32-wasip1";
/** The files the module is built from; built.json names them and records their hash. */
const SOURCES = ["Cargo.toml", "Cargo.lock", "src/main.rs"];

const cargo = (...args) => execFileSync("cargo", args, { cwd: crate, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

cargo("build", "--release", "--locked", "--target", TARGET);
const wasm = path.join(root, "src", "codegen", "jsonnet-evaluator.wasm");
copyFileSync(path.join(crate, "target", TARGET, "release", "codegen-jsonnet-evaluator.wasm"), wasm);

// The crates compiled into the module: the crate's normal dependencies for the target, less
// the procedural macros (and what only they use), which run at build time.
const metadata = JSON.parse(cargo("metadata", "--format-version", "1", "--locked", "--filter-platform", TARGET));
const packages = new Map(metadata.packages.map((pkg) => [pkg.id, pkg]));
const nodes = new Map(metadata.resolve.nodes.map((node) => [node.id, node]));
const isProcMacro = (pkg) => pkg.targets.some((target) => target.kind.includes("proc-macro"));
const compiled = new Set();
const pending = [metadata.resolve.root];
while (pending.length > 0) {
  const id = pending.pop();
  if (compiled.has(id) || isProcMacro(packages.get(id))) continue;
  compiled.add(id);
  for (const dep of nodes.get(id).deps) if (dep.dep_kinds.some((kind) => kind.kind === null)) pending.push(dep.pkg);
}
compiled.delete(metadata.resolve.root);
// Each licence text once, after the crates it comes with (most share the same Apache-2.0 text).
const crates = [...compiled].map((id) => packages.get(id)).sort((a, b) => a.name.localeCompare(b.name));
const cratesOfText = new Map();
for (const pkg of crates) {
  const dir = path.dirname(pkg.manifest_path);
  for (const name of readdirSync(dir).filter((file) => /^(LICEN[CS]E|COPYING)/i.test(file)).sort()) {
    const text = readFileSync(path.join(dir, name), "utf8").trim();
    cratesOfText.set(text, [...(cratesOfText.get(text) ?? []), `${pkg.name} ${pkg.version} (${name})`]);
  }
}
const listing = crates.map((pkg) => `- ${pkg.name} ${pkg.version}: ${pkg.license}${pkg.repository ? `, ${pkg.repository}` : ""}`);
const texts = [...cratesOfText].map(([text, owners]) => `=== ${owners.join(", ")}\n\n${text}\n`);
writeFileSync(
  path.join(root, "src", "codegen", "jsonnet-evaluator.licenses.txt"),
  `jsonnet-evaluator.wasm is codegen's jsonnet evaluator (native/jsonnet), built with these crates:\n\n${listing.join("\n")}\n\n${texts.join("\n")}`,
);

const sha256 = (data) => createHash("sha256").update(data).digest("hex");
const built = {
  rustc: execFileSync("rustc", ["--version"], { encoding: "utf8" }).trim(),
  files: SOURCES,
  sources: sha256(SOURCES.map((name) => readFileSync(path.join(crate, name))).join("\0")),
  wasm: sha256(readFileSync(wasm)),
};
writeFileSync(path.join(crate, "built.json"), `${JSON.stringify(built, null, 2)}\n`);
console.log(`jsonnet-evaluator.wasm: ${readFileSync(wasm).length} bytes, ${compiled.size} crates`);
