// How `codegen dev` runs uvicorn: without uvicorn's reloader (dev starts it again itself,
// watching the application's package, never the whole project with its `.venv/`); it serves
// with the generated protocol and gives uvicorn the config's trusted proxies, or none.

import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { DevProject } from "../../src/dev/project.js";
import { appSourceDirs, uvicornArgs } from "../../src/dev/uvicorn.js";

const root = await mkdtemp(join(tmpdir(), "codegen-dev-uvicorn-"));
after(() => rm(root, { recursive: true, force: true }));

const project = (app: string): DevProject => ({ root, name: "shop", configFile: join(root, "config", "project.jsonnet"), app, databaseUrlEnv: "DATABASE_URL", frontend: undefined });

const api = { packagePrefix: "shop.api", trustedProxies: [] };

test("serves the app on 127.0.0.1 without uvicorn's reloader; the app's top-level package is what changes restart", async () => {
  await mkdir(join(root, "shop", "api"), { recursive: true });
  await writeFile(join(root, "shop", "__init__.py"), "");
  await mkdir(join(root, ".venv", "lib"), { recursive: true });
  const args = uvicornArgs(project("shop.main:app"), 8123, api);
  assert.deepEqual(args.slice(0, 5), ["shop.main:app", "--host", "127.0.0.1", "--port", "8123"]);
  assert.ok(!args.some((arg) => arg.startsWith("--reload")), args.join(" "));
  assert.deepEqual(appSourceDirs(project("shop.main:app")), [join(root, "shop")]);
});

test("finds a package under src/, and falls back to the project for a module beside pyproject.toml", async () => {
  await mkdir(join(root, "src", "billing"), { recursive: true });
  await writeFile(join(root, "src", "billing", "__init__.py"), "");
  assert.deepEqual(appSourceDirs(project("billing.web.main:app")), [join(root, "src", "billing")]);
  await writeFile(join(root, "app.py"), "");
  assert.deepEqual(appSourceDirs(project("app:app")), [root]);
});

test("serves with the generated protocol, and trusts X-Forwarded-* from the config's trusted proxies only", () => {
  const value = (args: string[], flag: string) => args[args.indexOf(flag) + 1];
  const none = uvicornArgs(project("shop.main:app"), 8000, api);
  assert.equal(value(none, "--http"), "shop.api.runtime.server:BoundedHttpProtocol");
  assert.ok(none.includes("--no-proxy-headers"));
  assert.ok(!none.includes("--forwarded-allow-ips"));
  const proxied = uvicornArgs(project("shop.main:app"), 8000, { packagePrefix: "", trustedProxies: ["10.0.0.0/8", "127.0.0.1"] });
  assert.equal(value(proxied, "--http"), "runtime.server:BoundedHttpProtocol");
  assert.equal(value(proxied, "--forwarded-allow-ips"), "10.0.0.0/8,127.0.0.1");
  assert.ok(!proxied.includes("--no-proxy-headers"));
});
