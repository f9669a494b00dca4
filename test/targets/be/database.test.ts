// `database.py`: everything the generated routes query, per database. Each database lists
// the models its resources serve and the runtime's idempotency_keys; the default one also
// the rate-limit counters, revoked tokens and comms outbox of the projects that use them;
// the extensions come first, only when some list needs an index.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";

let dir: string;
let be: Target;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-database-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

async function databaseModule(config: object): Promise<string> {
  const configFile = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const result = await planGeneration({ target: be, configFile, outDir: join(dir, "out") });
  return result.files.find((file) => file.path === "database.py")!.content;
}

const resource = (name: string, extra: object = {}) => ({
  model: `shop.models.${name}`,
  fields: [
    { name: "id", type: "int" },
    { name: "label", type: "str" },
  ],
  pk_type: "int",
  operations: ["get", "list", "create"],
  ...extra,
});

describe("database.py", () => {
  test("a database per key, each with its models and idempotency_keys; the default one is METADATA", async () => {
    const module = await databaseModule({
      databases: [{ key: "main", default: true }, { key: "stats", url_env: "STATS_URL" }],
      module: "shop",
      resources: [resource("Shelf"), resource("Count", { db_key: "stats" })],
    });
    assert.match(module, /^from db\.main_session import get_engine as get_main_engine$/m);
    assert.match(module, /^from db\.stats_session import get_engine as get_stats_engine$/m);
    assert.match(module, /^METADATA = \(\*dict\.fromkeys\(\[Shelf\.metadata\]\), idempotency\.metadata\)$/m);
    assert.match(module, /^STATS_METADATA = \(\*dict\.fromkeys\(\[Count\.metadata\]\), idempotency\.metadata\)$/m);
    assert.match(module, /DatabaseNeeds\(METADATA, get_main_engine, url_env="DATABASE_URL"\),\s+DatabaseNeeds\(STATS_METADATA, get_stats_engine, url_env="STATS_URL"\),/);
    assert.match(module, /^router = APIRouter\(lifespan=check_at_startup\(\*DATABASES\)\)$/m);
    assert.doesNotMatch(module, /EXTENSIONS/, "no list needs an index");
  });

  test("a trigram search puts its extension first; comms add the outbox to the default database", async () => {
    const module = await databaseModule({
      module: "shop",
      comms: {
        types: [{ name: "welcome", context: "shop.messages.Welcome", subject: "Hi", body: "Welcome.", targets: ["email"] }],
        targets: [{ name: "email", type: "smtp" }],
      },
      resources: [resource("Shelf", { search: { fields: ["label"], strategy: "trigram" } })],
    });
    assert.match(module, /^from indexes import EXTENSIONS$/m);
    assert.match(module, /METADATA = \(\s*extensions_metadata\(EXTENSIONS\),\s*\*dict\.fromkeys\(\[Shelf\.metadata\]\),\s*idempotency\.metadata,\s*comms\.metadata,\s*\)/);
  });

  test("rate limits and logout add their tables to the default database", async () => {
    const module = await databaseModule({
      module: "shop",
      rate_limit: "100/minute",
      auth: { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify", logout_url: "/auth/logout" },
      resources: [resource("Shelf")],
    });
    assert.match(module, /^from runtime import idempotency, rate_limit, revocation$/m);
    assert.match(module, /^METADATA = \(\s*\*dict\.fromkeys\(\[Shelf\.metadata\]\),\s*idempotency\.metadata,\s*rate_limit\.metadata,\s*revocation\.metadata,\s*\)$/m);
  });
});
