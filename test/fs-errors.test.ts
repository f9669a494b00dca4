// File-system failures through the real CLI: a full disk (ENOSPC), a read-only file system
// (EROFS) and a directory the user may not write (EACCES) each print what failed, on which
// path and what to do, exit 1, and leave the output directory as it was. The first two use a
// small tmpfs in a private mount namespace (`unshare -m`); the last runs the CLI as `nobody`
// when the tests run as root.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { benchConfig } from "../bench/configs.js";
import { builtCli } from "./helpers/codegen-cli.js";
import { makeTempDir, removeTempDirs, repoRoot } from "./helpers/user-project.js";

let work: string;
let config: string;
const cli = await builtCli();

before(async () => {
  work = await makeTempDir("codegen-fs-errors-");
  config = path.join(work, "config.json");
  await writeFile(config, JSON.stringify(benchConfig(30)));
});

after(removeTempDirs);

/** Why private mounts cannot be used here, or undefined when they can. */
function mountNamespaceProblem(): string | undefined {
  const probe = spawnSync("unshare", ["-m", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs "${repoRoot}/test" && umount "${repoRoot}/test"`]);
  if (probe.error) return `unshare is not available (${probe.error.message})`;
  return probe.status === 0 ? undefined : `cannot mount a tmpfs in a private mount namespace: ${probe.stderr.toString().trim()}`;
}

/**
 * Runs `setup` then the CLI in a private mount namespace whose `mountPoint` is a 256 KiB tmpfs,
 * then lists what is left there (the mount disappears with the namespace).
 */
function inTmpfs(mountPoint: string, setup: string, out: string): { status: number | null; stderr: string; left: string[] } {
  const node = [process.execPath, cli, "generate", "-t", "be", "-c", config, "-o", out]
    .map((word) => `'${word}'`)
    .join(" ");
  const script = [
    `mount -t tmpfs -o size=256k tmpfs '${mountPoint}'`,
    setup,
    `${node} 2>'${work}/stderr.txt'; echo "status=$?"`,
    `find '${mountPoint}' -mindepth 1 | sort`,
  ].join("\n");
  const run = spawnSync("unshare", ["-m", "sh", "-c", script], { cwd: work, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  const lines = run.stdout.trim().split("\n");
  const status = Number(/^status=(\d+)$/.exec(lines[0] ?? "")?.[1] ?? NaN);
  const stderr = spawnSync("cat", [path.join(work, "stderr.txt")], { encoding: "utf8" }).stdout;
  return { status, stderr, left: lines.slice(1).filter((line) => line !== "").map((line) => path.relative(mountPoint, line)) };
}

/** Why a permission failure cannot be staged here, or undefined when it can. */
function permissionProblem(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const probe = spawnSync("setpriv", ["--bounding-set=-dac_override,-dac_read_search", "true"]);
  return probe.status === 0 ? undefined : "running as root without setpriv to drop the capability to ignore permissions";
}

describe("file-system errors through the CLI", () => {
  const problem = mountNamespaceProblem();

  it("a full disk: says so for the file it could not write, and leaves the directory as it was", { skip: problem }, async () => {
    const mountPoint = await makeTempDir("codegen-enospc-");
    const out = path.join(mountPoint, "out");
    const result = inTmpfs(mountPoint, `mkdir '${out}' && echo mine > '${out}/keep.txt'`, out);
    assert.equal(result.status, 1, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`^Error: cannot write ${out}/\\S+: no space left on the device \\(ENOSPC\\); free some space on that file system, then run again; nothing was changed in the output directory\\n$`),
    );
    assert.deepEqual(result.left, ["out", "out/keep.txt"]);
  });

  it("a read-only file system: names the lock file it could not create and what to do", { skip: problem }, async () => {
    const mountPoint = await makeTempDir("codegen-erofs-");
    const out = path.join(mountPoint, "out");
    const result = inTmpfs(mountPoint, `mkdir '${out}' && echo mine > '${out}/keep.txt' && mount -o remount,ro '${mountPoint}'`, out);
    assert.equal(result.status, 1, result.stderr);
    assert.equal(
      result.stderr,
      `Error: cannot create the lock file ${out}/.codegen-lock: the file system is read-only (EROFS); ` +
        "choose an output directory on a writable file system\n",
    );
    assert.deepEqual(result.left, ["out", "out/keep.txt"]);
  });

  it("a directory the user may not write: permission denied, nothing written", { skip: permissionProblem() }, async () => {
    const out = path.join(work, "readonly-out");
    await mkdir(out);
    await writeFile(path.join(out, "keep.txt"), "mine\n");
    await chmod(out, 0o555);
    try {
      // Root ignores permissions unless it drops the capabilities that let it.
      const prefix = process.getuid?.() === 0 ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] : [];
      const args = [...prefix, process.execPath, cli, "generate", "-t", "be", "-c", config, "-o", out];
      const run = spawnSync(args[0]!, args.slice(1), { cwd: work, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
      assert.equal(run.status, 1, run.stderr);
      assert.equal(
        run.stderr,
        `Error: cannot create the lock file ${out}/.codegen-lock: permission denied (EACCES); ` +
          "check the permissions of the output directory, or choose another --out\n",
      );
    } finally {
      await chmod(out, 0o755);
    }
    assert.deepEqual(await readdir(out), ["keep.txt"]);
  });
});
