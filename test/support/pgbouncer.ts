/**
 * Debian's PgBouncer for tests, in front of a test PostgreSQL, with the settings of the
 * production recipe (`be_root`'s deploy/pgbouncer.ini: transaction pooling), the test's
 * databases, port and credentials in place of the recipe's.
 *
 * The binary comes from the Debian package (test/support/debian.ts), which installs its shared
 * libraries (libevent, c-ares, OpenSSL) where they are missing. PgBouncer refuses to run as root: there it
 * runs as the `postgres` system user the test PostgreSQL already runs as, from a copy of the
 * binary that user can read.
 */
import { chmod, chown, copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { oncePerProcess } from "./cache.js";
import { debianProgram, runStep } from "./debian.js";
import { freePort } from "./ports.js";
import { type RunningProcess, startProcess } from "./processes.js";

/** How long PgBouncer may take to listen once started, and one attempt to connect. */
const LISTEN_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 1000;

/** The path of the cached `pgbouncer` binary, downloaded and unpacked first if missing. */
export const ensurePgbouncer = oncePerProcess(() => debianProgram("pgbouncer", "usr/sbin/pgbouncer", ["--version"]));

export interface Pgbouncer {
  /** The pooled database as a SQLAlchemy async URL, `postgresql+asyncpg://…`. */
  asyncUrl: string;
  /** The pooled replica, when one was given, as a SQLAlchemy async URL: database `<db>_replica`. */
  replicaAsyncUrl: string;
  /** A setting of the `[pgbouncer]` section it runs with (`query_wait_timeout`), as written. */
  setting(key: string): string | undefined;
  /** The running PgBouncer: another process after `kill()` and `start()`. */
  readonly process: RunningProcess;
  /** SIGKILL, as a crash: resolves once it exited. */
  kill(): Promise<void>;
  /** Starts it again after `kill()`, on the same port with the same settings; resolves once it listens. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `ini` (the recipe's pgbouncer.ini) with `databases` as its `[databases]` entries and the
 * `[pgbouncer]` settings of `overrides` in place of the recipe's; its other settings kept.
 */
function localSettings(ini: string, databases: string[], overrides: Record<string, string>): string {
  const lines: string[] = [];
  const sections = new Set<string>();
  let section = "";
  for (const line of ini.split("\n")) {
    const header = /^\[(\w+)\]$/.exec(line.trim())?.[1];
    if (header !== undefined) {
      section = header;
      sections.add(section);
      const added = section === "databases" ? databases : section === "pgbouncer" ? Object.entries(overrides).map(([key, value]) => `${key} = ${value}`) : [];
      lines.push(line, ...added);
      continue;
    }
    const key = /^\s*([\w.-]+)\s*=/.exec(line)?.[1];
    if (key !== undefined && (section === "databases" || (section === "pgbouncer" && key in overrides))) continue;
    lines.push(line);
  }
  if (!sections.has("databases") || !sections.has("pgbouncer")) throw new Error(`the recipe's pgbouncer.ini lacks [databases] or [pgbouncer]:\n${ini}`);
  return lines.join("\n");
}

/** The value of `key` in the `[pgbouncer]` section of `ini`. */
function settingOf(ini: string, key: string): string | undefined {
  const section = ini.slice(ini.indexOf("[pgbouncer]"));
  return new RegExp(`^\\s*${key}\\s*=\\s*(.*?)\\s*$`, "m").exec(section)?.[1];
}

/**
 * Start PgBouncer with `ini` (the production recipe's pgbouncer.ini, test/support/recipe.ts) on
 * 127.0.0.1 and a free port, pooling the database of `serverUrl`
 * (`postgresql://user:password@127.0.0.1:port/db`) in `poolSize` server connections, and, given
 * `replicaUrl` (a replica of it: the same database, user and password), the replica's as
 * database `<db>_replica`, as the recipe names it.
 */
export async function startPgbouncer(ini: string, serverUrl: string, poolSize: number, replicaUrl?: string): Promise<Pgbouncer> {
  const binary = await ensurePgbouncer();
  const server = new URL(serverUrl);
  const database = server.pathname.slice(1);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "codegen-pgbouncer-"));
  const copy = join(dir, "pgbouncer");
  await copyFile(binary, copy);
  await chmod(copy, 0o755);
  await writeFile(join(dir, "users.txt"), `"${user}" "${password}"\n`);
  const pool = (name: string, url: URL) => `${name} = host=${url.hostname} port=${url.port} dbname=${database}`;
  const settings = localSettings(ini, [pool(database, server), ...(replicaUrl === undefined ? [] : [pool(`${database}_replica`, new URL(replicaUrl))])], {
    listen_addr: "127.0.0.1",
    listen_port: String(port),
    unix_socket_dir: "",
    default_pool_size: String(poolSize),
    auth_type: "plain",
    auth_file: join(dir, "users.txt"),
  });
  await writeFile(join(dir, "pgbouncer.ini"), settings);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await chmod(dir, 0o755);
    const ids = async (flag: string) => Number((await runStep("id", [flag, "postgres"])).stdout);
    const [uid, gid] = [await ids("-u"), await ids("-g")];
    for (const name of ["", "pgbouncer", "users.txt", "pgbouncer.ini"]) await chown(join(dir, name), uid, gid);
  }
  const command = asRoot ? "runuser" : copy;
  const args = [...(asRoot ? ["-u", "postgres", "--", copy] : []), join(dir, "pgbouncer.ini")];
  const listening = async () => {
    const proc = startProcess(command, args);
    try {
      await waitForPort(port, proc, LISTEN_TIMEOUT_MS);
    } catch (error) {
      await proc.stop();
      throw error;
    }
    return proc;
  };
  let proc: RunningProcess;
  try {
    proc = await listening();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const pooled = `postgresql+asyncpg://${server.username}:${server.password}@127.0.0.1:${port}/${database}`;
  return {
    asyncUrl: pooled,
    replicaAsyncUrl: `${pooled}_replica`,
    setting: (key) => settingOf(settings, key),
    get process() {
      return proc;
    },
    kill: async () => {
      // The whole group: under root the child is runuser, PgBouncer its child.
      process.kill(-proc.child.pid!, "SIGKILL");
      await proc.exitCode;
    },
    start: async () => {
      proc = await listening();
    },
    stop: async () => {
      await proc.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, proc: RunningProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exited()) throw new Error(`pgbouncer exited before listening:\n${proc.output()}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), done(true)));
      socket.once("error", () => done(false));
      socket.setTimeout(CONNECT_TIMEOUT_MS, () => (socket.destroy(), done(false)));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on ${port} within ${timeoutMs} ms:\n${proc.output()}`);
    await sleep(100);
  }
}
