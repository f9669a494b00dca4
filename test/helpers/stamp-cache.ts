// Up-to-date stamps (src/codegen/up-to-date.ts) of a test file, kept out of the user's cache.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before } from "node:test";

/**
 * Points `CODEGEN_CACHE_DIR` at a temp directory for the calling test file (child processes
 * inherit it, so the stamps of a CLI run land there too) and removes it afterwards.
 * @returns the directory, once the file's `before` hooks have run.
 */
export function useTempStampCache(): () => string {
  let dir: string | undefined;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "codegen-stamps-"));
    process.env.CODEGEN_CACHE_DIR = dir;
  });
  after(async () => {
    delete process.env.CODEGEN_CACHE_DIR;
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (dir === undefined) throw new Error("the stamp cache is made in a before hook: read it inside a test");
    return dir;
  };
}
