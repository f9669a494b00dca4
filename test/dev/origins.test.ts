// `codegen dev` allows the dev servers' origins to use the session cookie: the backend
// compares `Origin` with configured origins only, so dev sets its variable for it.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { devOriginsEnv, vitePort } from "../../src/dev/origins.js";

const frontend = await mkdtemp(join(tmpdir(), "codegen-dev-origins-"));
after(() => rm(frontend, { recursive: true, force: true }));

const cookie = { allowed_origins: ["https://app.example.com"], allowed_origins_env: "ALLOWED_ORIGINS" };

test("sets the configured origins, then the backend's and the front end's dev origins", async () => {
  await writeFile(join(frontend, "vite.config.ts"), "export default { server: { port: 5199, strictPort: true } };\n");
  assert.deepEqual(devOriginsEnv(cookie, 8000, frontend, {}), {
    ALLOWED_ORIGINS: "https://app.example.com,http://127.0.0.1:8000,http://localhost:8000,http://127.0.0.1:5199,http://localhost:5199",
  });
  assert.deepEqual(devOriginsEnv({ ...cookie, allowed_origins: [], allowed_origins_env: "SITE_ORIGINS" }, 8001, undefined, {}), {
    SITE_ORIGINS: "http://127.0.0.1:8001,http://localhost:8001",
  });
});

test("leaves a variable the developer set, and sets nothing without cookie sessions", () => {
  assert.deepEqual(devOriginsEnv(cookie, 8000, undefined, { ALLOWED_ORIGINS: "" }), {});
  assert.deepEqual(devOriginsEnv(undefined, 8000, frontend, {}), {});
});

test("takes Vite's default port when the config names none", async () => {
  const other = await mkdtemp(join(tmpdir(), "codegen-dev-origins-"));
  try {
    assert.equal(vitePort(other), 5173);
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});
