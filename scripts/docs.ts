/**
 * `npm run docs`: writes each of this package's targets' config reference,
 * `docs/reference/<target>.md`, from the JSON Schema `codegen schema --target <target>`
 * prints. test/docs-reference.test.ts fails when a committed file differs from this output.
 */
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { configReference, discoverTargets } from "../src/codegen/index.js";

/** This package's own targets: the ones the repository documents. */
export const DOCUMENTED_TARGETS = ["be", "be_root", "fe", "fe_root"] as const;

export const referenceDir = resolve(fileURLToPath(import.meta.url), "../../docs/reference");

/** The reference of each documented target, by file path. */
export async function references(): Promise<Map<string, string>> {
  const targets = await discoverTargets();
  return new Map(
    DOCUMENTED_TARGETS.map((name) => {
      const target = targets.find((candidate) => candidate.name === name);
      if (!target) throw new Error(`target ${name} is not installed`);
      return [join(referenceDir, `${name}.md`), configReference(target)];
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of await references()) {
    await writeFile(file, text);
    process.stdout.write(`wrote ${file}\n`);
  }
}
