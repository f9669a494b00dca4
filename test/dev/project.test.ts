// What `codegen dev` reads from a project: the `[tool.codegen]` table be_root writes into
// pyproject.toml, the front end beside it, and a clear error outside such a project.

import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { DevError, readDevProject } from "../../src/dev/project.js";
import { generateFromConfig } from "../helpers/golden.js";

const temps: string[] = [];
after(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

async function scaffold(config: Record<string, unknown>): Promise<string> {
  const { out, temps: made } = await generateFromConfig("be_root", config);
  temps.push(...made);
  return out;
}

describe("readDevProject", () => {
  test("reads the config, the application and the database variable be_root wrote", async () => {
    const root = await scaffold({ name: "Shop-Backend", database_url_env: "SHOP_DB" });
    const project = await readDevProject(root);
    assert.deepEqual(project, {
      root,
      name: "Shop-Backend",
      configFile: join(root, "config", "project.jsonnet"),
      app: "shop_backend.main:app",
      databaseUrlEnv: "SHOP_DB",
      frontend: undefined,
    });
  });

  test("finds a Vite front end in frontend/, takes --frontend, and --no-frontend turns it off", async () => {
    const root = await scaffold({ name: "shop" });
    await mkdir(join(root, "frontend"));
    await writeFile(join(root, "frontend", "vite.config.ts"), "export default {};\n");
    await writeFile(join(root, "frontend", "package.json"), "{}\n");
    assert.equal((await readDevProject(root)).frontend, join(root, "frontend"));
    assert.equal((await readDevProject(root, false)).frontend, undefined);
    assert.equal((await readDevProject(root, "frontend")).frontend, join(root, "frontend"));
    await assert.rejects(readDevProject(root, "web"), (error: unknown) => error instanceof DevError && /--frontend web: no package\.json/.test(error.message));
  });

  test("outside a project it says what to run", async () => {
    const dir = await mkdtemp(join(tmpdir(), "codegen-dev-empty-"));
    temps.push(dir);
    await assert.rejects(readDevProject(dir), (error: unknown) => error instanceof DevError && /no pyproject\.toml in .*codegen generate --target be_root/.test(error.message));
  });
});
