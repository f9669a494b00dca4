/**
 * Debian's nginx for tests: a load balancer on 127.0.0.1 in front of app instances
 * (test/support/debian.ts unpacks the package). Each listed balancer is a port of its own
 * proxying to its upstream ports round-robin, a connection of its own per request.
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
  /** `http://127.0.0.1:<port>` of each balancer, in the order given. */
  baseUrls: string[];
  process: RunningProcess;
  /** Balancer `index` spreads requests over `ports` from now on: resolves once no worker of the old configuration runs. */
  setUpstreams(index: number, ports: number[]): Promise<void>;
  stop(): Promise<void>;
}

/** Start nginx with one balancer per entry of `upstreams`, each the ports of the instances it spreads requests over. */
export async function startNginx(instancePorts: readonly (readonly number[])[]): Promise<Nginx> {
  const upstreams = instancePorts.map((ports) => [...ports]);
  const binary = await ensureNginx();
  const dir = await mkdtemp(join(tmpdir(), "codegen-nginx-"));
  // Its workers run as nobody under root, and write their temporary files here.
  await chmod(dir, 0o755);
  const ports = await Promise.all(upstreams.map(() => freePort()));
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`);
  const configure = () => {
    const servers = upstreams.flatMap((instances, index) => [
      `  upstream app${index} {`,
      ...instances.map((port) => `    server 127.0.0.1:${port};`),
      "  }",
      "  server {",
      `    listen 127.0.0.1:${ports[index]} backlog=4096;`,
      "    location / {",
      `      proxy_pass http://app${index};`,
      "      proxy_set_header Host $http_host;",
      "      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
      "    }",
      "  }",
    ]);
    const config = [
      "daemon off;",
      "worker_processes 1;",
      `pid ${join(dir, "nginx.pid")};`,
      "error_log stderr warn;",
      "events { worker_connections 4096; }",
      "http {",
      "  access_log off;",
      ...temp,
      ...servers,
      "}",
      "",
    ].join("\n");
    return writeFile(join(dir, "nginx.conf"), config);
  };
  await configure();
  const proc = startProcess(binary, ["-p", dir, "-e", "stderr", "-c", join(dir, "nginx.conf")]);
  const baseUrls = ports.map((port) => `http://127.0.0.1:${port}`);
  try {
    await waitForHttp(`${baseUrls[0]}/`, proc);
  } catch (error) {
    await proc.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const workers = async () => new Set(await childPids(proc));
  return {
    baseUrls,
    process: proc,
    setUpstreams: async (index, instances) => {
      upstreams[index] = instances;
      await configure();
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
