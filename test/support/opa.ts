/**
 * The Open Policy Agent server of the tests: the real `opa`, built from the Go module proxy
 * with `go install github.com/open-policy-agent/opa@<OPA_VERSION>` and cached outside the
 * repository (test/support/cache.ts) as `opa-<hash of the version>`; the first build takes
 * about 3 minutes on 2 cores, later runs reuse the binary. The build's module and build
 * caches live in the entry while it builds and are removed after, leaving the binary alone.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { cachedBuild, hashOf, oncePerProcess } from "./cache.js";
import { freePort } from "./ports.js";
import { type RunningProcess, startProcess, waitForHttp } from "./processes.js";
import { type CheckResult, runCheck } from "./python.js";

const run = promisify(execFile);

/** The OPA release the tests run; bump it here, and the next run builds it. */
export const OPA_VERSION = "v1.22.2";

/** The Go toolchain: on PATH, else where the official tarball puts it. */
function goBinary(): string {
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "go"))) return join(dir, "go");
  return "/usr/local/go/bin/go";
}

/** The path of the cached `opa` binary, built first if missing. */
export const ensureOpa = oncePerProcess(buildIfMissing);

async function buildIfMissing(): Promise<string> {
  const dir = await cachedBuild(
    "opa",
    hashOf(OPA_VERSION),
    async (target) => {
      const scratch = join(target, "build");
      const env = {
        ...process.env,
        GOBIN: join(target, "bin"),
        GOPATH: join(scratch, "gopath"),
        GOMODCACHE: join(scratch, "mod"),
        GOCACHE: join(scratch, "cache"),
        // Writable module files, so the scratch directory can be removed afterwards.
        GOFLAGS: "-modcacherw",
        GOTOOLCHAIN: "local",
        CGO_ENABLED: "0",
      };
      try {
        await run(goBinary(), ["install", `github.com/open-policy-agent/opa@${OPA_VERSION}`], { env, maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        const detail = (error as { stderr?: string }).stderr ?? String(error);
        throw new Error(`could not build OPA ${OPA_VERSION} with go install (the OPA tests need Go and the Go module proxy):\n${detail}`);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
    (entry) => existsSync(join(entry, "bin", "opa")),
  );
  return join(dir, "bin", "opa");
}

export interface OpaServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  process: RunningProcess;
  stop(): Promise<void>;
}

/** Start `opa run --server` on 127.0.0.1 and a free port with the policies in `paths` (files or directories). */
export async function startOpa(paths: string[], port?: number): Promise<OpaServer> {
  const opa = await ensureOpa();
  const chosen = port ?? (await freePort());
  const proc = startProcess(opa, ["run", "--server", "--addr", `127.0.0.1:${chosen}`, "--log-level", "error", ...paths]);
  const url = `http://127.0.0.1:${chosen}`;
  try {
    await waitForHttp(`${url}/health`, proc);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { url, process: proc, stop: () => proc.stop() };
}

/** `opa test -v` on `paths` (absolute): its exit status and output. */
export async function opaTest(paths: string[]): Promise<CheckResult> {
  return runCheck(await ensureOpa(), ["test", "-v", ...paths], process.cwd());
}
