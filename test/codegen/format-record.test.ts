// The formatter's answers kept between runs (src/codegen/format-record.ts), on a real directory:
// what a later run may take from disk, and what planning may then skip. generate.test.ts covers
// the whole run (which files a run formats, and that it writes what a fresh run writes).
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";

import { RACY_NS } from "../../src/codegen/file-identity.js";
import { FormatRecord } from "../../src/codegen/format-record.js";
import { sha256 } from "../../src/codegen/prune.js";
import { useTempStampCache } from "../helpers/stamp-cache.js";
import { makeTempDir } from "../helpers/user-project.js";

useTempStampCache();

const GIVEN = "x=1\n";
const MADE = "x = 1\n";

/** An output directory where a first run formatted `a.py` (GIVEN → MADE) and wrote it, its record saved for `code`. */
async function formattedOnce(code = "code-1"): Promise<{ outDir: string; file: string; key: Parameters<typeof FormatRecord.open>[0] }> {
  const outDir = await makeTempDir("codegen-format-record-");
  const key = { targetName: "toy", configFile: path.join(outDir, "config.json"), cwd: outDir, out: outDir };
  const first = FormatRecord.open(key, code);
  assert.equal(first.recall("a.py", GIVEN), undefined, "nothing recorded yet");
  first.remember("a.py", GIVEN, MADE);
  const file = path.join(outDir, "a.py");
  await writeFile(file, MADE);
  // Written well before the next run reads it (its change time cannot be set back): not racy.
  await setTimeout(Number(RACY_NS / 1_000_000n) + 50);
  first.save(outDir, new Map([["a.py", sha256(MADE)]]), code);
  return { outDir, file, key };
}

/** A record opened for code-1, whose run's formatter left `README.md` as given ("hello\n"), saved with `codeAfter` as the code after the write. */
async function leftAsGiven(codeAfter: string): Promise<Parameters<typeof FormatRecord.open>[0]> {
  const outDir = await makeTempDir("codegen-format-record-");
  const key = { targetName: "toy", configFile: path.join(outDir, "config.json"), cwd: outDir, out: outDir };
  const first = FormatRecord.open(key, "code-1");
  first.remember("README.md", "hello\n", null);
  first.save(outDir, new Map(), codeAfter);
  return key;
}

describe("FormatRecord", () => {
  it("answers with the file on disk for the same text, and vouches for it until the file changes", async () => {
    const { file, key } = await formattedOnce();
    const next = FormatRecord.open(key, "code-1");
    assert.equal(next.recall("a.py", GIVEN), MADE);
    assert.equal(next.holds(file, MADE), true);
    assert.equal(next.sha256("a.py", MADE), sha256(MADE));
    await writeFile(file, MADE); // the same bytes, written again: another identity
    assert.equal(next.holds(file, MADE), false, "a file written since its read is read again by planning");
  });

  it("does not answer for another text, another code, or a file edited since", async () => {
    const { file, key } = await formattedOnce();
    assert.equal(FormatRecord.open(key, "code-1").recall("a.py", "x=2\n"), undefined);
    assert.equal(FormatRecord.open(key, "code-2").recall("a.py", GIVEN), undefined);
    await writeFile(file, "edited by hand\n");
    assert.equal(FormatRecord.open(key, "code-1").recall("a.py", GIVEN), undefined);
  });

  it("answers for a file written just now, but leaves it to planning to read", async () => {
    const { file, key } = await formattedOnce();
    await writeFile(file, MADE); // the same bytes, modified within the racy window
    const next = FormatRecord.open(key, "code-1");
    assert.equal(next.recall("a.py", GIVEN), MADE);
    assert.equal(next.holds(file, MADE), false);
  });

  it("saves nothing if the code changed while the run formatted", async () => {
    const key = await leftAsGiven("code-2");
    assert.equal(FormatRecord.open(key, "code-1").recall("README.md", "hello\n"), undefined);
    assert.equal(FormatRecord.open(key, "code-2").recall("README.md", "hello\n"), undefined);
  });

  it("answers without reading when the formatter left the text as it was", async () => {
    const key = await leftAsGiven("code-1");
    assert.equal(FormatRecord.open(key, "code-1").recall("README.md", "hello\n"), null, "no file is needed: the answer is the text itself");
  });
});
