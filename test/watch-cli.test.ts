// `codegen generate --watch` end to end: the real CLI in a child process over a small jsonnet
// project. An edit saved by rename-replace rewrites only the files it changes; a config error
// is printed with its file and leaves the output alone while the watch goes on; the fix and an
// edit of an imported file regenerate; SIGTERM in the middle of a run exits 0 and leaves no
// lock, journal or temp file behind.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFile, readdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { builtCli, runCodegen } from "./helpers/codegen-cli.js";
import { treeHashes, treeMtimes as mtimes } from "./helpers/trees.js";
import { makeTempDir, removeTempDirs } from "./helpers/user-project.js";

const cli = await builtCli();

const resources = (orderField: string, productField: string) => `[
  { model: 'shop.models.Product', fields: [{ name: 'id', type: 'uuid' }, { name: '${productField}', type: 'str' }], operations: ['get', 'list'] },
  { model: 'shop.models.Order', fields: [{ name: 'id', type: 'uuid' }, { name: '${orderField}', type: 'int' }], operations: ['get'] },
]
`;

/** The config; `orderOps` adds operations to the Order resource the imported file declares. */
const config = (orderOps: string[] = []) => `local resources = import 'resources.libsonnet';
{
  package_prefix: 'shop.api',
  databases: [{ key: 'main', default: true }],
  apps: [{ config: { module: 'catalog', resources: [resources[0], resources[1] + { operations+: ${JSON.stringify(orderOps)} }] } }],
}
`;

/** How long the watch may take to print what a run prints: a run takes a second or two, many more on a busy machine. */
const OUTPUT_TIMEOUT_MS = 60_000;
/** How long the watch may take to exit after SIGTERM (it ends the run under way first). */
const EXIT_TIMEOUT_MS = 30_000;

/** The watching CLI: its output so far, and a wait for the next line matching a pattern. */
class WatchProcess {
  readonly child: ChildProcessWithoutNullStreams;
  output = "";
  #seen = 0;
  #waiters: (() => void)[] = [];
  readonly #exited: Promise<number | null>;

  constructor(cwd: string, args: string[]) {
    this.child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: { ...process.env, NODE_OPTIONS: "", FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    const take = (chunk: Buffer) => {
      this.output += chunk.toString();
      for (const wake of this.#waiters.splice(0)) wake();
    };
    this.child.stdout.on("data", take);
    this.child.stderr.on("data", take);
    this.#exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
  }

  /** Resolves once the output, anywhere (stdout and stderr interleave freely), matches `pattern`. */
  async somewhere(pattern: RegExp): Promise<void> {
    const seen = this.#seen;
    this.#seen = 0;
    await this.next(pattern);
    this.#seen = seen;
  }

  /** Resolves with the first output after the last match that matches `pattern`. */
  async next(pattern: RegExp, timeoutMs = OUTPUT_TIMEOUT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.output.slice(this.#seen);
      const match = pattern.exec(rest);
      if (match) {
        this.#seen += match.index + match[0].length;
        return rest.slice(0, match.index + match[0].length);
      }
      if (this.child.exitCode !== null) throw new Error(`the watch exited (${this.child.exitCode}) before ${pattern}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${this.output}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** The exit code, failing with the output when the watch still runs after {@link EXIT_TIMEOUT_MS}. */
  async exit(): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(resolve, EXIT_TIMEOUT_MS, "late")));
    const code = await Promise.race([this.#exited, late]).finally(() => clearTimeout(timer));
    if (code === "late") throw new Error(`the watch still runs ${EXIT_TIMEOUT_MS} ms after SIGTERM; output:\n${this.output}`);
    return code;
  }
}

/** Saves as editors do that write a new file and rename it over the old one. */
async function saveByRename(file: string, content: string): Promise<void> {
  await writeFile(`${file}.swp`, content);
  await rename(`${file}.swp`, file);
}

const RUN = /codegen: (\d+) files? written, \d+ unchanged, \d+ deleted, in .* \(\d+ ms\); watching for changes\n/;

let work: string;
before(async () => {
  work = await makeTempDir("codegen-watch-cli-");
});
after(removeTempDirs);

describe("codegen generate --watch", () => {
  it("is a usage error with --check or --dry-run", async () => {
    for (const flag of ["--check", "--dry-run"]) {
      const run = await runCodegen(work, ["generate", "-t", "be", "-c", "missing.jsonnet", "--watch", flag]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /cannot be used with option/);
    }
  });

  it("regenerates what changed, survives a config error, and stops cleanly on SIGTERM", async (t) => {
    const configFile = path.join(work, "config.jsonnet");
    const resourcesFile = path.join(work, "resources.libsonnet");
    const out = path.join(work, "out");
    await writeFile(configFile, config());
    await writeFile(resourcesFile, resources("total", "title"));
    const watch = new WatchProcess(work, ["generate", "-t", "be", "-c", "config.jsonnet", "-o", "out", "--watch", "--timings"]);
    t.after(() => watch.child.kill("SIGKILL"));

    const first = await watch.next(RUN);
    const initial = await mtimes(out);
    // The first run writes the whole tree (the manifest is not counted).
    assert.equal(Number(RUN.exec(first)![1]), initial.size - 1, `first run: ${first}`);

    // An edit of the config, saved by rename-replace: only the files it changes are written.
    await new Promise((resolve) => setTimeout(resolve, 20)); // a later mtime than the first run's
    await saveByRename(configFile, config(["delete"]));
    const edited = await watch.next(RUN);
    const written = Number(RUN.exec(edited)![1]);
    await watch.somewhere(/codegen: timings: load config \d+ ms, .*; run \d+ ms\n/); // --timings: a line per run
    const afterEdit = await mtimes(out);
    const rewritten = [...afterEdit].filter(([file, mtime]) => initial.get(file) !== mtime).map(([file]) => file);
    assert.ok(written >= 1 && written <= 3, `the edit wrote ${written} files`);
    assert.deepEqual(rewritten.filter((file) => file !== ".codegen-manifest.json").length, written, `rewritten: ${rewritten.join(", ")}`);
    assert.equal(afterEdit.get("catalog/routes/product.py"), initial.get("catalog/routes/product.py"), "an unaffected file keeps its mtime");

    // A config error: printed with the config file, the output left as it was, still watching.
    const before = await treeHashes(out);
    await writeFile(resourcesFile, "[ { model: 'shop.models.Product', ");
    const failed = await watch.next(/the output was left as it was; watching for changes\n/);
    assert.match(failed, /Error loading config: config\.jsonnet: jsonnet error: .*\n --> resources\.libsonnet:1:35\n/);
    assert.deepEqual(await treeHashes(out), before);
    assert.equal(watch.child.exitCode, null, "the watch is still running");

    // The fix (the imported file, with one field renamed) regenerates the files it changes.
    await writeFile(resourcesFile, resources("amount", "title"));
    const fixed = await watch.next(RUN);
    assert.ok(Number(RUN.exec(fixed)![1]) >= 1, fixed);
    assert.match(await readFile(path.join(out, "catalog", "schemas", "order.py"), "utf8"), /\bamount\b/);
    const afterFix = await mtimes(out);
    assert.equal(afterFix.get("catalog/routes/product.py"), initial.get("catalog/routes/product.py"));

    // Another edit of the imported file, then SIGTERM while that run is under way.
    await writeFile(resourcesFile, resources("amount", "name"));
    const renamed = await watch.next(RUN);
    assert.match(await readFile(path.join(out, "catalog", "schemas", "product.py"), "utf8"), /\bname\b/);
    assert.ok(Number(RUN.exec(renamed)![1]) >= 1);
    await writeFile(resourcesFile, resources("amount", "label"));
    await new Promise((resolve) => setTimeout(resolve, 60));
    watch.child.kill("SIGTERM");
    assert.equal(await watch.exit(), 0, watch.output);
    assert.match(watch.output, /codegen: stopped watching\n$/);
    const left = await readdir(out);
    assert.deepEqual(left.filter((name) => name.startsWith(".codegen-") && name !== ".codegen-manifest.json"), [], "no lock or journal left");
    const temps = (await readdir(out, { recursive: true })).filter((name) => /\.codegen-.*\.tmp$/.test(path.basename(String(name))));
    assert.deepEqual(temps, []);
  });
});
