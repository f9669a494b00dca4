// `codegen clean`: deletes the files a target generated into an output directory, as its
// manifest records them, and nothing else. A file deleted is one the manifest lists for the
// target, inside the output directory, still exactly as generated; a file another target also
// recorded, one changed since, a `skip` file (written once, the user's since) and every file
// codegen never wrote stay. It runs as a writing `generate` does: under the output directory's
// lock, after completing an interrupted run, through the same journaled plan.

import { existsSync } from "node:fs";
import path from "node:path";

import { defaultOutDir } from "./generate.js";
import { type Recovery, recoverInterruptedRun } from "./journal.js";
import { type LockOptions, withOutputLock } from "./lock.js";
import { MANIFEST_FILE, formatManifest, isEmptyManifest, manifestPath, readManifest, updateManifest } from "./manifest.js";
import { OutputTree } from "./output-tree.js";
import { comparePaths } from "./paths.js";
import { type KeptFile, type PlannedDeletion, type RecordedFile, planDeletionsIn, sha256 } from "./prune.js";
import { packagePrefixOf } from "./target.js";
import { type ValidateOptions, type ValidConfig, loadValidConfig } from "./validate.js";
import { applyPlan, planTempRemovals } from "./writer.js";

/** One `codegen clean` run. */
export interface CleanOptions extends ValidateOptions {
  /** @default the package prefix as a path, as for `generate` */
  outDir?: string;
  /** How long to wait for another run writing to the same directory, and who to tell. */
  lock?: LockOptions;
}

/** What a clean did. */
export interface CleanResult extends ValidConfig {
  /** Absolute output directory. */
  outDir: string;
  /** The files deleted (temp files of killed runs included), sorted by path; the manifest is not among them. */
  deleted: PlannedDeletion[];
  /** Files the target recorded that stay, and why, sorted by path. */
  kept: KeptFile[];
  /** Files the target wrote with the `skip` policy, left to the user. */
  skipped: readonly string[];
  /** What was done about an interrupted run found there, if anything. */
  recovered: Recovery | undefined;
}

/**
 * Deletes the files `target` generated into the output directory, then forgets them: the
 * target's part of the manifest goes, and the manifest with it once it records nothing. The
 * config is loaded and validated first, as `generate` does, and names the output directory
 * when `outDir` is not given. A directory that does not exist is left so.
 * @throws ConfigError for a bad config; GenerationError for a corrupt manifest;
 * LockTimeoutError when another run keeps the directory; FileSystemError when a deletion fails.
 * @example const { deleted, kept } = await clean({ target, configFile: "config/project.jsonnet" });
 */
export async function clean(options: CleanOptions): Promise<CleanResult> {
  const { target } = options;
  const valid = await loadValidConfig(options);
  const outDir = path.resolve(options.cwd ?? process.cwd(), options.outDir ?? defaultOutDir(packagePrefixOf(target, valid.config)));
  const nothing = { ...valid, outDir, deleted: [], kept: [], skipped: [], recovered: undefined };
  new OutputTree(outDir); // refuses an output directory that is a file, or unreachable, before anything else
  if (!existsSync(outDir)) return nothing;
  return withOutputLock(
    outDir,
    async () => {
      const recovered = recoverInterruptedRun(outDir);
      const stored = await readManifest(outDir);
      const recorded = stored.recorded.get(target.name) ?? [];
      const skipped = stored.runs.get(target.name)?.skip ?? [];
      if (recorded.length === 0 && !stored.runs.has(target.name)) return { ...nothing, recovered };
      // As a run that generates nothing: every file the target recorded and no other target does is stale.
      const { next: recordedAfter, stale: ours } = updateManifest(stored.recorded, target.name, []);
      const tree = new OutputTree(outDir);
      const { deletions, kept } = planDeletionsIn(tree, ours);
      const temps = planTempRemovals(tree, ours);
      const byPath = (a: { path: string }, b: { path: string }) => comparePaths(a.path, b.path);
      const deleted = [...deletions, ...temps].sort(byPath);

      const runsAfter = new Map(stored.runs);
      runsAfter.delete(target.name);
      const remains = runsAfter.size > 0 || !isEmptyManifest(recordedAfter);
      // The manifest goes last, after the files it lists: a run killed before then leaves it naming files already gone, which is harmless.
      const manifest: RecordedFile = { path: MANIFEST_FILE, sha256: sha256(stored.text ?? "") };
      const plan = remains ? deleted : [...deleted, ...planDeletionsIn(tree, [manifest]).deletions];
      await applyPlan(plan, remains ? { manifest: { absolutePath: manifestPath(outDir), content: formatManifest(recordedAfter, runsAfter) } } : {});
      return { ...valid, outDir, deleted, kept: kept.sort(byPath), skipped, recovered };
    },
    options.lock,
  );
}
