// Several `codegen generate` processes writing to one output directory at once, each with its
// own config: the output directory's lock serialises them, so after every round the directory
// holds exactly one config's complete output, manifest included, and nothing else.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { benchConfig } from "../bench/configs.js";
import { runCodegen } from "./helpers/codegen-cli.js";
import { leftovers, sameTree, treeHashes } from "./helpers/trees.js";
import { makeTempDir, removeTempDirs } from "./helpers/user-project.js";

/** Four configs of different sizes: each run would leave a recognisably different tree. */
const SIZES = [12, 24, 36, 48];
const ROUNDS = 3;

let work: string;
const configs: string[] = [];
const expected: Map<string, string>[] = [];

before(async () => {
  work = await makeTempDir("codegen-concurrency-");
  for (const size of SIZES) {
    const config = path.join(work, `config-${size}.json`);
    await writeFile(config, JSON.stringify(benchConfig(size)));
    configs.push(config);
    // The reference: the config generated alone into an empty directory.
    const reference = path.join(work, `reference-${size}`);
    const run = await runCodegen(work, ["generate", "-t", "be", "-c", config, "-o", reference]);
    assert.equal(run.code, 0, run.stderr);
    expected.push(await treeHashes(reference));
  }
});

after(removeTempDirs);

describe("concurrent runs into one directory", () => {
  it(`leave one config's complete output after each of ${ROUNDS} rounds of ${SIZES.length} runs`, async () => {
    const out = path.join(work, "shared");
    await mkdir(out);
    for (let round = 1; round <= ROUNDS; round++) {
      // Rotate who starts first, so different configs get to write last.
      const order = SIZES.map((_, index) => (index + round) % SIZES.length);
      const runs = await Promise.all(order.map((index) => runCodegen(work, ["generate", "-t", "be", "-c", configs[index]!, "-o", out])));
      for (const run of runs) assert.equal(run.code, 0, `a run failed in round ${round}:\n${run.stderr}`);
      const tree = await treeHashes(out);
      assert.deepEqual(leftovers(tree), [], `round ${round} left temp, journal or lock files`);
      const winners = expected.flatMap((reference, index) => (sameTree(reference, tree) ? [index] : []));
      assert.equal(winners.length, 1, `round ${round}: the directory is not exactly one config's output (${tree.size} files)`);
      // The manifest agrees with the tree: the winning config finds it up to date.
      const check = await runCodegen(work, ["generate", "-t", "be", "-c", configs[winners[0]!]!, "-o", out, "--check"]);
      assert.equal(check.code, 0, check.stdout + check.stderr);
    }
  });
});
