// Keeps a `fe` front end in step with the backend while `codegen dev` serves both: when the
// backend's OpenAPI document differs from the one saved in the front end (`openapi.json`),
// it is saved, the `fe` target regenerates the pages and `npm run openapi-ts` the typed
// client; vite reloads the page. Done once the backend answers, and after every change that
// may alter the document (a regeneration, a migration), as soon as the reloaded backend
// serves the new document.

import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { discoverTargets, generate } from "../codegen/index.js";
import { runCommand } from "./processes.js";

/** The `fe` config a `fe_root` project holds. */
const FE_CONFIG = path.join("config", "fe.jsonnet");

/** How long after a change the reloaded backend may take to serve its new document. */
const RELOAD_WAIT_MS = 30_000;
const POLL_MS = 300;

export interface FrontendInStep {
  /** Looks for a new document until the reloaded backend serves one, or for a while. */
  schedule(): void;
  close(): Promise<void>;
}

/** Undefined when `frontend` holds no `fe` config: a front end without generated code. */
export function keepFrontendInStep(options: { frontend: string; openApiUrl: string; say(line: string): void }): FrontendInStep | undefined {
  const { frontend, say } = options;
  if (!existsSync(path.join(frontend, FE_CONFIG))) return undefined;
  const saved = path.join(frontend, "openapi.json");
  let running: Promise<void> = Promise.resolve();
  let waitingUntil = 0;
  let polling = false;
  let closed = false;

  /** Regenerates when the served document differs from the saved one; whether it did. */
  const refresh = async (): Promise<boolean> => {
    const response = await fetch(options.openApiUrl, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) return false;
    const document = `${JSON.stringify(await response.json(), null, 2)}\n`;
    if (document === (await readFile(saved, "utf8").catch(() => ""))) return false;
    await writeFile(saved, document);
    const targets = await discoverTargets({ cwd: frontend });
    const fe = targets.find((target) => target.name === "fe");
    if (!fe) throw new Error("the fe target is not installed");
    await generate({ target: fe, configFile: path.join(frontend, FE_CONFIG), outDir: frontend, stdlibTargets: targets, cwd: frontend });
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    if ((await runCommand(npm, ["run", "--silent", "openapi-ts"], { cwd: frontend, env: process.env })) !== 0) throw new Error(`npm run openapi-ts failed in ${frontend} (above)`);
    say(`the backend's OpenAPI document changed: the front end's pages and client were regenerated (${path.relative(process.cwd(), frontend) || "."})`);
    return true;
  };

  const poll = async () => {
    while (!closed && Date.now() < waitingUntil) {
      try {
        if (await refresh()) break;
      } catch (error) {
        say(`regenerating the front end failed: ${error instanceof Error ? error.message : String(error)}`);
        break;
      }
      await sleep(POLL_MS);
    }
    polling = false;
  };

  return {
    schedule() {
      waitingUntil = Date.now() + RELOAD_WAIT_MS;
      if (polling || closed) return;
      polling = true;
      running = running.then(poll);
    },
    async close() {
      closed = true;
      await running;
    },
  };
}
