// A project written in kiln's style (test/fixtures/kiln-style: its apps, kiln's login, kiln's
// project rate limits, fields per operation, actions through resource.action) generates as a
// kiln project is generated, warns of exactly what codegen reads differently, and the tree
// passes the gates users run (ruff format --check, ruff check).

import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runCodegen } from "../../helpers/codegen-cli.js";
import { ruff } from "../../support/python.js";
import { type Venv, ensureVenv } from "../../support/venv.js";

const fixture = resolve(fileURLToPath(import.meta.url), "../../../fixtures/kiln-style");
const RULES = "E,F,I,UP,B,SIM";

let venv: Venv;
let projectDir: string;
let generated: { code: number | null; stderr: string };

before(async () => {
  venv = await ensureVenv();
  projectDir = await mkdtemp(join(tmpdir(), "codegen-kiln-style-"));
  await cp(fixture, projectDir, { recursive: true });
  // As kiln's justfile runs it: the project config, the tree at package_prefix (_generated).
  generated = await runCodegen(projectDir, ["generate", "--target", "be", "--config", "config/project.jsonnet"]);
});

after(() => rm(projectDir, { recursive: true, force: true }));

describe("a project in kiln's style", () => {
  it("generates, naming in warnings only what codegen reads differently", () => {
    assert.equal(generated.code, 0, generated.stderr);
    const warnings = generated.stderr.split("\n").filter((line) => line.includes("warning:"));
    const paths = warnings.map((line) => /warning: config\/project\.jsonnet: (\S+):/.exec(line)?.[1]);
    assert.deepEqual(paths, [
      "rate_limit.bucket_model",
      // kiln's actions say instance or collection through their signature, which codegen does not import.
      "apps[0].config.resources[0].operations[5]",
      "apps[0].config.resources[0].operations[6]",
      "apps[0].config.resources[1].operations[1]",
      "apps[0].config.resources[1].operations[2]",
    ]);
  });

  it("passes ruff format --check and ruff check, generated and hand-written modules together", async () => {
    assert.equal(generated.code, 0, generated.stderr);
    const paths = ["_generated", "shop", "main.py"];
    const format = await ruff(venv, projectDir, ["format", "--check", "--diff", ...paths]);
    assert.ok(format.ok, `ruff format would change files:\n${format.output}`);
    const lint = await ruff(venv, projectDir, ["check", "--select", RULES, "--output-format", "concise", ...paths]);
    assert.ok(lint.ok, `ruff check (${RULES}) failed:\n${lint.output}`);
  });

  it("takes kiln's login: a JSON body of the credentials model, checked by validate_fn, the session's fields as claims, its session store", async () => {
    const router = await readFile(join(projectDir, "_generated/auth/router.py"), "utf8");
    assert.match(router, /async def issue_access_token\(\s*credentials: LoginCredentials,/);
    assert.match(router, /session_claims=session\.model_dump\(mode="json"\)/);
    // kiln's session store: told at logout (kiln's path), asked on every request.
    assert.match(router, /"\/auth\/token\/logout"/);
    assert.match(router, /await revocations\.revoke\(Session\.model_validate\(claims\)\)/);
    const dependencies = await readFile(join(projectDir, "_generated/auth/dependencies.py"), "utf8");
    assert.match(dependencies, /if await revocations\.is_revoked\(Session\.model_validate\(claims\)\):/);
    // kiln's project rate limit is the project's limit on every route, the token endpoint's too.
    const limits = await readFile(join(projectDir, "_generated/rate_limits.py"), "utf8");
    assert.match(limits, /"600\/minute"/);
    assert.match(limits, /"30\/minute"/);
  });

  it("calls kiln's actions with kiln's signature: the row, db=, and body= of the model the config names; answers with the function's model", async () => {
    const routes = await readFile(join(projectDir, "_generated/shop/routes/product.py"), "utf8");
    // The user's models are spelled with their module: a model class may share their names.
    assert.match(routes, /^import shop\.actions$/m);
    assert.doesNotMatch(routes, /^from shop\.actions import/m);
    assert.match(routes, /\bbody: shop\.actions\.DiscontinueRequest,/);
    assert.match(routes, /\) -> shop\.actions\.DiscontinueResponse:/);
    assert.match(routes, /result = await call_action\(\s*shop\.actions\.discontinue_product, product, db=session, body=body\s*\)/);
    assert.match(routes, /result = await call_action\(shop\.actions\.ping_product, product, db=session\)/);
  });

  it("gives actions of one name on two resources operation ids of their own", async () => {
    const routes = join(projectDir, "_generated/shop/routes");
    const ids: string[] = [];
    for (const file of await readdir(routes)) {
      ids.push(...[...(await readFile(join(routes, file), "utf8")).matchAll(/operation_id="(\w+)"/g)].map((match) => match[1]!));
    }
    assert.deepEqual(ids.filter((id) => id.startsWith("ping")).sort(), ["pingOrder", "pingProduct"]);
    assert.equal(new Set(ids).size, ids.length, `duplicate operation ids: ${ids.join(", ")}`);
  });
});
