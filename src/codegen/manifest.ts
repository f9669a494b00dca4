// The manifest: `.codegen-manifest.json` in the output directory records, per target, the
// files that target generated there and a hash of each. A later run of the same target
// deletes the recorded files it no longer produces, if they are still as generated; files it
// never recorded (the user's, `skip`-policy bootstrap files, other targets') are never touched.
// It also records, per target, what the last writing run was made from (`RunRecord`): a run
// with the same inputs over files that still hold what was written has nothing to do.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { GenerationError } from "./errors.js";
import { comparePaths, errorCode, isNormalOutputPath } from "./paths.js";
import { type RecordedFile, sha256 } from "./prune.js";
import type { PlannedWrite } from "./writer.js";

/** Name of the manifest file, at the top of the output directory. It never lists itself. */
export const MANIFEST_FILE = ".codegen-manifest.json";

/** Recorded files per target name, each list sorted by path. */
export type Manifest = ReadonlyMap<string, readonly RecordedFile[]>;

const MANIFEST_VERSION = 1;

/** What a target's last writing run into the directory was made from. */
export interface RunRecord {
  /** The hash of the run's inputs (input-hash.ts). */
  inputs: string;
  /** The hash of the code that generated, the formatter included (input-hash.ts). */
  code: string;
  /** Files written with the `skip` policy: the user's now, so not in the target's files, but the run made them. */
  skip: readonly string[];
  /**
   * The files and directories the run read besides the config, relative to the config file's
   * directory (`/`-separated), as the config names them: a later run with the same evaluated
   * config and code reads the same ones, so it can hash them before validating. Absent in a
   * manifest of an older codegen.
   */
  read?: readonly string[];
}

/** Run records per target name. */
export type RunRecords = ReadonlyMap<string, RunRecord>;

const NOTE =
  "Written by codegen generate: the files each target generated here, so that a later run can delete the ones it " +
  "no longer generates (only while they are unchanged). Keep it with the generated files; do not edit it.";

/** A manifest as found on disk. */
export interface StoredManifest {
  /** The recorded files; empty when there is no manifest. */
  recorded: Manifest;
  /** The recorded runs; empty when there is no manifest. */
  runs: RunRecords;
  /** The file's text, or undefined when there is none. */
  text: string | undefined;
}

/**
 * The manifest in `outDir`; empty when there is none yet; `known` itself when the file still holds its text.
 * @throws GenerationError naming the file when it cannot be read or is not a valid manifest.
 * @example (await readManifest("blog/api")).recorded.get("be")
 */
export async function readManifest(outDir: string, known?: StoredManifest): Promise<StoredManifest> {
  const file = manifestPath(outDir);
  const corrupt = (problem: string) =>
    new GenerationError(
      `corrupt manifest ${file}: ${problem}; fix it, or delete it ` +
        "(the next run then records afresh, and files generated before are yours to remove)",
    );
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { recorded: new Map(), runs: new Map(), text: undefined };
    if (code === "EISDIR") throw corrupt("it is a directory, not a file");
    throw error;
  }
  if (text === known?.text) return known;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw corrupt(`not valid JSON (${(error as Error).message})`);
  }
  // Loaded here, not at start-up: zod costs the up-to-date check's start-up more than its whole work.
  const { parseManifestData } = await import("./manifest-schema.js");
  const parsed = parseManifestData(data, MANIFEST_VERSION, isCanonicalPath);
  if ("problem" in parsed) throw corrupt(parsed.problem);
  return { recorded: new Map(Object.entries(parsed.targets)), runs: new Map(Object.entries(parsed.runs)), text };
}

/** Where the manifest of `outDir` lives. */
export function manifestPath(outDir: string): string {
  return path.join(path.resolve(outDir), MANIFEST_FILE);
}

/**
 * The manifest's text: deterministic (targets and paths sorted), one file per line so that a
 * diff shows exactly the files that came and went, with a trailing newline. Targets with no
 * files are left out.
 */
export function formatManifest(manifest: Manifest, runs: RunRecords = new Map()): string {
  const json = JSON.stringify;
  const sections: string[] = [];
  for (const name of [...manifest.keys()].sort(comparePaths)) {
    const files = [...manifest.get(name)!].sort((a, b) => comparePaths(a.path, b.path));
    if (files.length === 0) continue;
    const lines = files.map((file) => `      { "path": ${json(file.path)}, "sha256": ${json(file.sha256)}${file.assembled ? `, "assembled": ${json(file.assembled)}` : ""} }`);
    sections.push(`    ${json(name)}: [\n${lines.join(",\n")}\n    ]`);
  }
  const targets = sections.length === 0 ? "{}" : `{\n${sections.join(",\n")}\n  }`;
  const runLines = [...runs.keys()].sort(comparePaths).map((name) => {
    const { inputs, code, skip, read } = runs.get(name)!;
    const readPart = read === undefined ? "" : `, "read": ${json(read)}`;
    return `    ${json(name)}: { "inputs": ${json(inputs)}, "code": ${json(code)}, "skip": ${json([...skip].sort(comparePaths))}${readPart} }`;
  });
  const runsPart = runLines.length === 0 ? "" : `,\n  "runs": {\n${runLines.join(",\n")}\n  }`;
  return `{\n  "note": ${json(NOTE)},\n  "version": ${MANIFEST_VERSION},\n  "targets": ${targets}${runsPart}\n}\n`;
}

/** Whether a manifest records no file at all. */
export function isEmptyManifest(manifest: Manifest): boolean {
  return [...manifest.values()].every((files) => files.length === 0);
}

/** What this run records for its target, and which recorded files it no longer produces. */
export interface ManifestUpdate {
  /** The manifest after this run. */
  next: Manifest;
  /** Files the target recorded before, produces no more, and no other target records: candidates for deletion. */
  stale: RecordedFile[];
}

/**
 * The manifest after `target` wrote `writes` into a directory holding `previous`. Files with
 * the `overwrite` policy are recorded (whatever their action), with the hash of their
 * assembled text when `assembled` has one; `skip`-policy files are the user's once written
 * and never are. Other targets' sections are kept as they were.
 * @throws GenerationError when a generated file would be the manifest itself.
 */
export function updateManifest(
  previous: Manifest,
  target: string,
  writes: readonly PlannedWrite[],
  assembled: ReadonlyMap<string, string> = new Map(),
): ManifestUpdate {
  refuseManifestPath(writes.map((write) => [write.file.path, write.path]));
  const produced = new Set(writes.map((write) => write.path));
  const ownedByOthers = new Set<string>();
  for (const [name, files] of previous) if (name !== target) for (const file of files) ownedByOthers.add(file.path);
  const stale = (previous.get(target) ?? []).filter((file) => !produced.has(file.path) && !ownedByOthers.has(file.path));

  const recorded = writes
    .filter((write) => write.file.ifExists === "overwrite")
    .map((write): RecordedFile => {
      const before = assembled.get(write.path);
      return before === undefined ? { path: write.path, sha256: sha256(write.file.content) } : { path: write.path, sha256: sha256(write.file.content), assembled: before };
    });
  const next = new Map(previous);
  next.set(target, recorded);
  return { next, stale };
}

/**
 * @param outputs each output path as a target gave it, and normalised.
 * @throws GenerationError when one of them is the manifest itself.
 */
export function refuseManifestPath(outputs: Iterable<readonly [given: string, normalised: string]>): void {
  for (const [given, normalised] of outputs) {
    if (normalised === MANIFEST_FILE) throw new GenerationError(`output path "${given}" is reserved for codegen's manifest`, { outputPaths: [given] });
  }
}

function isCanonicalPath(value: string): boolean {
  return isNormalOutputPath(value) && value !== MANIFEST_FILE;
}

