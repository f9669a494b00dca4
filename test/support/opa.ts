/**
 * The Open Policy Agent server of the tests: the real `opa`, built from the Go module proxy
 * with `go install github.com/open-policy-agent/opa@<OPA_VERSION>` and cached
 * (test/support/go-install.ts); the first build takes about 3 minutes on 2 cores, later runs
 * reuse the binary.
 */
import { oncePerProcess } from "./cache.js";
import { goInstalled } from "./go-install.js";
import { freePort } from "./ports.js";
import { type RunningProcess, startProcess, waitForHttp } from "./processes.js";
import { type CheckResult, runCheck } from "./python.js";

/** The OPA release the tests run; bump it here, and the next run builds it. */
export const OPA_VERSION = "v1.22.2";

/** The path of the cached `opa` binary, built first if missing. */
export const ensureOpa = oncePerProcess(() => goInstalled("opa", "github.com/open-policy-agent/opa", OPA_VERSION, "the OPA tests"));

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
