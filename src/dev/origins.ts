// The origins `codegen dev` allows to send cookie-authenticated requests: a backend with
// cookie sessions compares a request's `Origin` with configured origins only (never with
// `Host`), and the browser pages of a dev session come from the backend itself
// (`/docs`) and from the front end's Vite dev server.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Vite's port when its config names none. */
const VITE_DEFAULT_PORT = 5173;

/** What `codegen dev` reads of the `be` config's cookie sessions. */
export interface CookieOrigins {
  allowed_origins: string[];
  allowed_origins_env: string;
}

/**
 * The environment giving the backend its allowed origins: `cookie.allowed_origins`, then the
 * backend's and the front end's dev origins. Empty without cookie sessions, or when the
 * variable is already set (the developer's choice stands).
 */
export function devOriginsEnv(cookie: CookieOrigins | undefined, backendPort: number, frontend: string | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  if (cookie === undefined || env[cookie.allowed_origins_env] !== undefined) return {};
  const hosts = (port: number) => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const origins = [...cookie.allowed_origins, ...hosts(backendPort), ...(frontend === undefined ? [] : hosts(vitePort(frontend)))];
  return { [cookie.allowed_origins_env]: [...new Set(origins)].join(",") };
}

/** The dev server's port in the front end's `vite.config.ts` (`port: 5174`), or Vite's default. */
export function vitePort(frontend: string): number {
  const config = path.join(frontend, "vite.config.ts");
  const match = existsSync(config) ? /\bport:\s*(\d{1,5})\b/.exec(readFileSync(config, "utf8")) : null;
  return match ? Number(match[1]) : VITE_DEFAULT_PORT;
}
