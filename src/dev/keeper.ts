// The keeper: a small `sh` process that outlives `codegen dev` only to stop what it started.
// `codegen dev` tells it, over a pipe, each process it starts (uvicorn's and vite's process
// groups, PostgreSQL); when the pipe closes without a "release" line, `codegen dev` is gone
// (SIGKILL, a crash), and the keeper signals them all, waits for them, and kills the groups
// that outlive a grace period. It runs in a session of its own, so a Ctrl-C or a closed
// terminal does not reach it, and its pipe's write end is close-on-exec, so no child of
// `codegen dev` holds the pipe open.

import { spawn } from "node:child_process";
import type { OwnedProcess } from "./lock.js";

/**
 * The keeper's program: reads `<signal> <target>` lines (and `forget <target>` for one that
 * ended) until "release" (exit) or end of input (stop them all).
 */
const KEEPER_SCRIPT = `
targets=
while read -r signal target; do
  [ "$signal" = release ] && exit 0
  if [ "$signal" = forget ]; then
    kept=
    for entry in $targets; do [ "\${entry#*:}" = "$target" ] || kept="$kept $entry"; done
    targets=$kept
    continue
  fi
  targets="$targets $signal:$target"
done
for entry in $targets; do kill -s "\${entry%%:*}" -- "\${entry#*:}" 2>/dev/null; done
tries=0
while [ $tries -lt 100 ]; do
  alive=
  for entry in $targets; do kill -0 -- "\${entry#*:}" 2>/dev/null && alive=1; done
  [ -z "$alive" ] && exit 0
  sleep 0.1
  tries=$((tries + 1))
done
for entry in $targets; do
  case "\${entry#*:}" in -*) kill -s KILL -- "\${entry#*:}" 2>/dev/null ;; esac
done
`;

export interface Keeper {
  /** Has the keeper stop `owned` should `codegen dev` die without releasing it. */
  watch(owned: OwnedProcess): void;
  /** `owned` ended: the keeper leaves its pid (which the system may give another process) alone. */
  forget(owned: OwnedProcess): void;
  /** `codegen dev` stopped everything itself: the keeper exits without signalling anything. */
  release(): void;
}

/** What the keeper signals for `owned`: its group (a negative pid) or the process. */
const target = (owned: OwnedProcess) => (owned.group ? -owned.pid : owned.pid);

/** Starts the keeper of this `codegen dev`. */
export function startKeeper(): Keeper {
  const child = spawn("sh", ["-c", KEEPER_SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  child.on("error", () => undefined); // no sh: nothing watches, and the next run stops leftovers by the lock's record
  child.stdin!.on("error", () => undefined); // the keeper died (killed by hand): the same
  // Neither the keeper nor its pipe keeps `codegen dev` running.
  child.unref();
  (child.stdin as unknown as { unref(): void }).unref();
  return {
    watch(owned) {
      child.stdin!.write(`${owned.signal.replace(/^SIG/, "")} ${target(owned)}\n`);
    },
    forget(owned) {
      child.stdin!.write(`forget ${target(owned)}\n`);
    },
    release() {
      child.stdin!.end("release\n");
    },
  };
}
