/**
 * Go programs the tests run (OPA, the S3 server), built from the Go module proxy with `go
 * install` and cached outside the repository (cache.ts) as `<name>-<hash of the version>`: the
 * first run builds, later runs reuse the binary. The build's module and build caches live in
 * the entry while it builds and are removed after, leaving the binary alone.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { cachedBuild, hashOf } from "./cache.js";

const run = promisify(execFile);

/** How long one `go install` may take: OPA's and versitygw's builds took 3 to 4 minutes of CPU on 2 cores. */
const BUILD_TIMEOUT_MS = 30 * 60_000;

/** The Go toolchain: on PATH, else where the official tarball puts it. */
function goBinary(): string {
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "go"))) return join(dir, "go");
  return "/usr/local/go/bin/go";
}

/**
 * The path of the cached binary `name`, built first if missing from `pkg@version`.
 * @param neededBy what to tell the reader when the build fails, e.g. "the OPA tests".
 * @example await goInstalled("opa", "github.com/open-policy-agent/opa", "v1.22.2", "the OPA tests")
 */
export async function goInstalled(name: string, pkg: string, version: string, neededBy: string): Promise<string> {
  const dir = await cachedBuild(
    name,
    hashOf(version),
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
        await run(goBinary(), ["install", `${pkg}@${version}`], { env, maxBuffer: 64 * 1024 * 1024, timeout: BUILD_TIMEOUT_MS });
      } catch (error) {
        const { stderr, killed } = error as { stderr?: string; killed?: boolean };
        const detail = `${killed ? `killed after its timeout of ${BUILD_TIMEOUT_MS} ms; its output so far:\n` : ""}${stderr ?? String(error)}`;
        throw new Error(`could not build ${name} ${version} with go install (${neededBy} need Go and the Go module proxy):\n${detail}`);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
    (entry) => existsSync(join(entry, "bin", name)),
  );
  return join(dir, "bin", name);
}
