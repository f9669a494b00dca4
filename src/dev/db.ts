// `codegen db url|migrate|reset` and `codegen test`: the database steps of `codegen dev`,
// outside it. The database is the one `codegen dev` would use: the URL in the project's
// variable when set, else the embedded PostgreSQL of the `codegen dev` running in the
// project (its lock records the URL), else the project's embedded PostgreSQL, started under
// the project's lock for the command's length. The test database is a second database on
// the same server, `<name>_test`, migrated before the generated tests run.

import { discoverTargets, generate } from "../codegen/index.js";
import { describeMigration, createDatabase, migrateDatabase, planMigration, projectSeed, resetDatabase, seedDatabase, type MigrateReport, type StepContext } from "./db-steps.js";
import { newInterpreters } from "./interpreters.js";
import { acquireDevLock, runningDev } from "./lock.js";
import { startProjectDatabase } from "./postgres.js";
import { runCommand, stopLeftovers } from "./processes.js";
import { DevError, type DevProject, readDevProject } from "./project.js";
import { projectPython } from "./python.js";

const say = (line: string) => process.stderr.write(`codegen: ${line}\n`);

/** A failure of `codegen db` or `codegen test`, prefixed with its command rather than `codegen dev`. */
class DbCommandError extends DevError {
  constructor(
    override readonly prefix: string,
    message: string,
  ) {
    super(message);
  }
}

/** Runs a command's body, its DevErrors named after the command. */
async function as<T>(commandName: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof DevError && !(error instanceof DbCommandError)) throw new DbCommandError(commandName, error.message);
    throw error;
  }
}

/** The variable the test database's URL is given in, as the generated tests read it. */
const TEST_URL_ENV = "TEST_DATABASE_URL";

/** The database `url` names, renamed `<name>_test`: the test database on the same server. */
function testDatabaseUrl(url: string): { url: string; name: string } {
  const parsed = new URL(url);
  const name = `${decodeURIComponent(parsed.pathname.slice(1)) || "postgres"}_test`;
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return { url: parsed.toString(), name };
}

/**
 * Runs `use` with the URL of the project's database: the variable's, the running
 * `codegen dev`'s, or the embedded server's started for the call (and stopped after).
 */
async function withDatabase<T>(project: DevProject, use: (url: string) => Promise<T>): Promise<T> {
  const given = process.env[project.databaseUrlEnv];
  if (given) return use(given);
  const dev = await runningDev(project.root);
  if (dev?.database) return use(dev.database);
  const { lock, leftovers } = await acquireDevLock(project.root);
  // Released once what this run started has stopped; otherwise the keeper stops it, and the lock keeps its record.
  let stopped = true;
  try {
    await stopLeftovers(leftovers, say);
    const db = await startProjectDatabase(project.root, project.name, lock);
    try {
      return await use(db.url);
    } finally {
      stopped = false;
      await db.stop();
      stopped = true;
    }
  } finally {
    if (stopped) await lock.release();
  }
}

async function context(project: DevProject, url: string, urlEnv = project.databaseUrlEnv): Promise<StepContext> {
  const python = await projectPython(project.root, process.env, say);
  const env = { ...process.env, [urlEnv]: url, PYTHONDONTWRITEBYTECODE: "1" };
  return { interpreters: newInterpreters({ python, cwd: project.root, env, stdout: "pipe" }), root: project.root, urlEnv };
}

/** `codegen generate --target be` on the project's config, as `codegen dev` starts with. */
async function generateApi(project: DevProject): Promise<void> {
  const targets = await discoverTargets({ cwd: project.root });
  const be = targets.find((target) => target.name === "be");
  if (!be) throw new DevError("the be target is not installed");
  await generate({ target: be, configFile: project.configFile, stdlibTargets: targets, cwd: project.root });
}

/** Says what a migration did; non-zero when a change that drops data was held back. */
function reportMigration(report: MigrateReport): number {
  for (const line of describeMigration(report, { retry: "codegen db migrate --allow-data-loss", write: "codegen db migrate" })) say(line);
  if (report.changes.length === 0) say("the database is up to date with the models");
  return report.revision === null && report.data_loss.length > 0 ? 1 : 0;
}

export interface DbOptions {
  root: string;
  allowDataLoss?: boolean;
  /** `url`: the test database's. */
  test?: boolean;
  /** `reset`: the user confirmed. */
  yes?: boolean;
}

/** `codegen db url`: the URL on stdout; fails when no database runs (the embedded one lives with `codegen dev`). */
export function printDatabaseUrl(options: DbOptions): Promise<number> {
  return as("codegen db", async () => {
    const project = await readDevProject(options.root, false);
    const url = process.env[project.databaseUrlEnv] ?? (await runningDev(project.root))?.database;
    if (!url) {
      throw new DevError(`no database: ${project.databaseUrlEnv} is unset and no codegen dev runs in ${project.root} (its embedded PostgreSQL runs while codegen dev does)`);
    }
    process.stdout.write(`${options.test ? (process.env[TEST_URL_ENV] ?? testDatabaseUrl(url).url) : url}\n`);
    return 0;
  });
}

/** `codegen db migrate`: generate, apply the migrations, write and apply one for what is missing. */
export function migrateCommand(options: DbOptions): Promise<number> {
  return as("codegen db", async () => {
    const project = await readDevProject(options.root, false);
    await generateApi(project);
    return withDatabase(project, async (url) => reportMigration(await migrateDatabase(await context(project, url), options.allowDataLoss === true)));
  });
}

/** `codegen db reset --yes`: drop everything in the database, then migrate it. */
export function resetCommand(options: DbOptions): Promise<number> {
  return as("codegen db", async () => {
    const project = await readDevProject(options.root, false);
    if (!options.yes) throw new DevError("db reset drops every table of the project's database and its data; run codegen db reset --yes to do so");
    await generateApi(project);
    return withDatabase(project, async (url) => {
      const step = await context(project, url);
      const status = reportMigration(await resetDatabase(step, options.allowDataLoss === true));
      const seed = projectSeed(project);
      const seeded = seed !== undefined && (await seedDatabase(step, seed, true)).seeded;
      say(`the database was emptied and migrated${seeded ? `, then seeded with ${seed.module}.seed` : ""}`);
      return status;
    });
  });
}

/** `codegen db seed`: the project's `seed(session)`, on the database as it is. */
export function seedCommand(options: DbOptions): Promise<number> {
  return as("codegen db", async () => {
    const project = await readDevProject(options.root, false);
    const seed = projectSeed(project);
    if (seed === undefined) throw new DevError(`no seed module: write seed(session) in the application package's seed.py`);
    return withDatabase(project, async (url) => {
      await seedDatabase(await context(project, url), seed, false);
      say(`seeded with ${seed.module}.seed`);
      return 0;
    });
  });
}

/**
 * `codegen test`: generate, create and migrate the test database, then `python -m pytest`
 * with `args`, the test database's URL in TEST_DATABASE_URL. Returns pytest's status.
 */
export function testCommand(options: { root: string; args: string[] }): Promise<number> {
  return as("codegen test", async () => {
    const project = await readDevProject(options.root, false);
    await generateApi(project);
    return withDatabase(project, async (url) => {
      const test = process.env[TEST_URL_ENV] ? { url: process.env[TEST_URL_ENV], name: "" } : testDatabaseUrl(url);
      if (!process.env[TEST_URL_ENV] && (await createDatabase(await context(project, url), test.name))) say(`created the test database ${test.name}`);
      const step = await context(project, test.url);
      const pending = await planMigration(step);
      if (pending.changes.length > 0) {
        say(`the migrations do not cover the models (codegen db migrate writes one); the test database lacks:\n${pending.changes.map((line) => `  ${line}`).join("\n")}`);
      }
      // The application's variable names the test database too: no test reaches the development data.
      const env = { ...process.env, [TEST_URL_ENV]: test.url, [project.databaseUrlEnv]: test.url, PYTHONDONTWRITEBYTECODE: "1" };
      return runCommand(step.interpreters.python, ["-m", "pytest", ...options.args], { cwd: project.root, env });
    });
  });
}
