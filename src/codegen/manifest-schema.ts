// The manifest file's schema (zod), apart from manifest.ts so that only a run that reads a
// manifest loads zod: the up-to-date check's start-up stays small.

import { z } from "zod";

import { configIssuesOf } from "./config-path.js";
import type { RunRecord } from "./manifest.js";
import type { RecordedFile } from "./prune.js";

/**
 * The manifest's targets if `data` is a valid manifest of `version`, else the problem, listing
 * each issue with its path. `isCanonical` tells a normalised output path (not the manifest's own).
 */
export function parseManifestData(
  data: unknown,
  version: number,
  isCanonical: (path: string) => boolean,
): { targets: Record<string, RecordedFile[]>; runs: Record<string, RunRecord> } | { problem: string } {
  const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits");
  const OutputPath = z.string().refine((value) => isCanonical(value), "must be a normalised path inside the output directory, not the manifest itself");
  const Recorded = z.strictObject({ path: OutputPath, sha256: Sha256, assembled: Sha256.optional() });
  const Run = z.strictObject({ inputs: Sha256, code: Sha256, skip: z.array(OutputPath), read: z.array(z.string().min(1)).optional() });

  const ManifestFile = z.strictObject({
    note: z.string().optional(),
    version: z.literal(version, { error: `must be ${version} (this manifest was written by another codegen version)` }),
    targets: z.record(
      z.string().min(1),
      z.array(Recorded).superRefine((files, ctx) => {
        const seen = new Set<string>();
        files.forEach((file, index) => {
          if (seen.has(file.path)) ctx.addIssue({ code: "custom", path: [index, "path"], message: `"${file.path}" is listed twice` });
          seen.add(file.path);
        });
      }),
    ),
    runs: z.record(z.string().min(1), Run).optional(),
  });
  const result = ManifestFile.safeParse(data);
  if (result.success) return { targets: result.data.targets, runs: result.data.runs ?? {} };
  const issues = configIssuesOf(result.error);
  return { problem: issues.map((issue) => `${issue.path || "(root)"}: ${issue.message}`).join("; ") };
}
