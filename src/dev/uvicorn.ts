// How `codegen dev` runs the backend: the one list of uvicorn's arguments, and the directory
// whose changes start it again.
//
// It runs without uvicorn's reloader: `codegen dev` starts the server again itself
// (backend.ts, reload.ts), watching the application's package through inotify. uvicorn's
// reloader polls without `watchfiles` installed (every `.py` file it watches, four times a
// second), and keeps the port open with nothing behind it when the application fails to start.
//
// It serves with the generated API's HTTP protocol (`runtime/server.py`), as the run recipe
// does: it records each connection's peer, so the client address rate limits count follows
// the config's `trusted_proxies`. uvicorn's own proxy-header handling (the scheme from
// `X-Forwarded-Proto`, `request.client`) is given the same proxies, or none.

import { existsSync } from "node:fs";
import path from "node:path";
import type { DevProject } from "./project.js";

/** What of the `be` config the server's arguments follow. */
export interface ServedApi {
  /** The config's `package_prefix`: where the generated API (and its `runtime/`) lives. */
  packagePrefix: string;
  /** The config's `trusted_proxies`. */
  trustedProxies: readonly string[];
}

/** uvicorn's arguments (the application first) serving `project` on 127.0.0.1:`port`. */
export function uvicornArgs(project: DevProject, port: number, api: ServedApi): string[] {
  const protocol = [api.packagePrefix, "runtime", "server"].filter(Boolean).join(".");
  const proxies = api.trustedProxies.length > 0 ? ["--forwarded-allow-ips", api.trustedProxies.join(",")] : ["--no-proxy-headers"];
  return [project.app, "--host", "127.0.0.1", "--port", String(port), "--http", `${protocol}:BoundedHttpProtocol`, ...proxies];
}

/**
 * The directory of the application's top-level package (`shop/` for `shop.main:app`), at
 * the project's root or under `src/`; the project's root when there is none (a module
 * beside pyproject.toml).
 */
export function appSourceDirs(project: DevProject): string[] {
  const topLevel = project.app.split(":", 1)[0]!.split(".", 1)[0]!;
  const found = [project.root, path.join(project.root, "src")]
    .map((base) => path.join(base, topLevel))
    .find((dir) => existsSync(path.join(dir, "__init__.py")));
  return [found ?? project.root];
}
