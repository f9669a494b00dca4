/**
 * Debian's nginx for tests: a load balancer on 127.0.0.1 in front of app instances
 * (test/support/debian.ts unpacks the package), serving the site of the production recipe
 * (`be_root`'s deploy/nginx.conf, test/support/recipe.ts) with the test's ports in place of the
 * recipe's: its upstream's `server` lines name the instances, its `listen 80` a free port.
 * `setUpstreams` takes an instance out of rotation (or puts it back) as an operator does before
 * stopping it: nginx's open-source build does no active health checks, so it cannot read an
 * instance's readiness; it reloads its configuration, and resolves once the workers of the old
 * one have finished their requests and exited. Its temporary files and pid are in a directory
 * of its own, removed by `stop()`.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oncePerProcess } from "./cache.js";
import { debianProgram } from "./debian.js";
import { freePort } from "./ports.js";
import { type RunningProcess, childPids, startProcess, waitForHttp } from "./processes.js";

/** The path of the cached `nginx` binary, downloaded and unpacked first if missing. */
export const ensureNginx = oncePerProcess(() => debianProgram("nginx", "usr/sbin/nginx", ["-v"]));

/** How long a reload may take, the old workers' requests included. */
const RELOAD_TIMEOUT_MS = 60_000;

export interface Nginx {
  /** `http://127.0.0.1:<port>` of the balancer. */
  baseUrl: string;
  process: RunningProcess;
  /** Spreads requests over the instances on `ports` from now on: resolves once no worker of the old configuration runs. */
  setUpstreams(ports: number[]): Promise<void>;
  stop(): Promise<void>;
}

/** The upstream's block of `server` lines, and the server's `listen`: what the tests replace in the recipe's site. */
const UPSTREAM_SERVERS = /^(upstream \S+ \{\n)((?:[ \t]*server \S+;\n)+)/m;
const LISTEN = /^([ \t]*)listen 80;$/m;

/** `site` (the recipe's nginx.conf) with `ports` as its upstream's instances, listening on 127.0.0.1:`port`. */
function localSite(site: string, port: number, ports: readonly number[]): string {
  if (!UPSTREAM_SERVERS.test(site) || !LISTEN.test(site)) throw new Error(`the recipe's nginx.conf has no upstream of servers or no "listen 80;":\n${site}`);
  return site
    .replace(UPSTREAM_SERVERS, (_, opening: string) => opening + ports.map((each) => `    server 127.0.0.1:${each};\n`).join(""))
    .replace(LISTEN, (_, indent: string) => `${indent}listen 127.0.0.1:${port} backlog=4096;`);
}

/** Start nginx serving `site` (the recipe's nginx.conf) in front of the instances on `instancePorts`. */
export async function startNginx(site: string, instancePorts: readonly number[]): Promise<Nginx> {
  const binary = await ensureNginx();
  const dir = await mkdtemp(join(tmpdir(), "codegen-nginx-"));
  // Its workers run as nobody under root, and write their temporary files here.
  await chmod(dir, 0o755);
  const port = await freePort();
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`);
  // As Debian's nginx.conf, whose http block includes conf.d/*.conf.
  await writeFile(
    join(dir, "nginx.conf"),
    ["daemon off;", "worker_processes 1;", `pid ${join(dir, "nginx.pid")};`, "error_log stderr warn;", "events { worker_connections 4096; }", "http {", "  access_log off;", ...temp, `  include ${join(dir, "site.conf")};`, "}", ""].join("\n"),
  );
  const configure = (ports: readonly number[]) => writeFile(join(dir, "site.conf"), localSite(site, port, ports));
  await configure(instancePorts);
  const proc = startProcess(binary, ["-p", dir, "-e", "stderr", "-c", join(dir, "nginx.conf")]);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${baseUrl}/`, proc);
  } catch (error) {
    await proc.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const workers = async () => new Set(await childPids(proc));
  return {
    baseUrl,
    process: proc,
    setUpstreams: async (ports) => {
      await configure(ports);
      const old = await workers();
      proc.child.kill("SIGHUP");
      const deadline = Date.now() + RELOAD_TIMEOUT_MS;
      // The master starts new workers, and the old ones exit once their requests are answered.
      while ([...(await workers())].some((pid) => old.has(pid))) {
        if (proc.exited() || Date.now() > deadline) throw new Error(`nginx did not reload within ${RELOAD_TIMEOUT_MS} ms:\n${proc.output()}`);
        await sleep(50);
      }
    },
    stop: async () => {
      await proc.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
