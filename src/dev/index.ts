// `codegen dev`: one command from a project made by `be_root` to a running stack. It finds
// the Python environment, starts the database (the project's embedded PostgreSQL unless the
// URL variable is set), generates the API, makes up a development signing secret when the
// config needs one, migrates, checks the config against the models, serves, regenerates on
// config changes and starts the backend again on code changes (reload.ts), and serves the
// front end beside it; SIGINT, SIGTERM or SIGHUP stops all of it.
//
// It owns what it starts: one run per project (a lock), every process it starts recorded
// in the lock and watched by a keeper that stops them should `codegen dev` be killed, and
// what a killed run left behind stopped by the next. Any failure ends it with a non-zero
// status.

import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError, type Target, countActions, discoverTargets, generate, loadConfig, withOutputLock } from "../codegen/index.js";
import { type Watcher, watchGeneration } from "../codegen/watch.js";
import { type DevLock, acquireDevLock } from "./lock.js";
import { type StepContext, describeMigration, migrateDatabase, planMigration, projectSeed, seedDatabase } from "./db-steps.js";
import { keepFrontendInStep } from "./frontend-client.js";
import { migrateInStep } from "./migrations.js";
import { startBackend } from "./backend.js";
import { type ReferencingConfig, checkReferences, loadProjectConfig } from "./check.js";
import { reloadOnChange } from "./reload.js";
import { type DevDatabase, startProjectDatabase } from "./postgres.js";
import { type ProcessGroup, assertPortFree, runCommand, startServer, stopLeftovers } from "./processes.js";
import { projectPython } from "./python.js";
import { CHECK_MODULES, type Interpreters, SERVER_MODULES, STEP_MODULES, newInterpreters, warmInterpreters } from "./interpreters.js";
import { DEV_USER, developmentSecret, developmentUser } from "./secrets.js";
import { type CookieOrigins, devOriginsEnv } from "./origins.js";
import { appSourceDirs, uvicornArgs } from "./uvicorn.js";
import { DevError, type DevProject, readDevProject } from "./project.js";

export { DevError } from "./project.js";

export interface DevOptions {
  /** The backend project. */
  root: string;
  /** Port of the backend. @default $PORT, else 8000 */
  port?: number;
  /** The front end to serve: a directory, `false` for none. @default `frontend/` or `../frontend` when it holds a Vite project */
  frontend?: string | false;
  /** Write and apply a migration whenever the models or the generated API need one. @default true */
  migrate?: boolean;
  /** Apply migrations that drop tables or columns too. @default false */
  allowDataLoss?: boolean;
  /** Reports errors of a regeneration (the watch goes on). */
  onGenerateError(error: unknown): void;
  /** Resolves when the user asks to stop (Ctrl-C). */
  stopRequested: Promise<void>;
}

const say = (line: string) => process.stderr.write(`codegen dev: ${line}\n`);

/** Runs the stack until `stopRequested` resolves or a server exits. Returns the exit status. */
export async function runDev(options: DevOptions): Promise<number> {
  const project = await readDevProject(options.root, options.frontend);
  const port = options.port ?? (process.env.PORT ? Number(process.env.PORT) : 8000);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new DevError(`the backend port must be a number from 1 to 65535 (PORT is ${process.env.PORT})`);
  const { lock, leftovers } = await acquireDevLock(project.root);
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    await stopLeftovers(leftovers, say);
    await assertPortFree(port, "the backend");
    const targets = await discoverTargets({ cwd: project.root });
    const be = targets.find((target) => target.name === "be");
    if (!be) throw new DevError("the be target is not installed");
    // A regeneration waits while a run holds the API (reload.ts): through a check, a migration and a start.
    const generation = { target: be, configFile: project.configFile, stdlibTargets: targets, cwd: project.root, lock: { timeoutMs: API_HOLD_TIMEOUT_MS } };
    const { config, outDir } = await generateOnce(generation);

    const python = await projectPython(project.root, process.env, say);
    const configName = path.relative(project.root, project.configFile);
    const checkConfig = async (interpreters: Interpreters, loaded?: ReferencingConfig) =>
      (await checkReferences(loaded ?? (await loadProjectConfig(project)), project.root, interpreters)).map((line) => `${configName}: ${line}`);
    const problems = await checkConfig(newInterpreters({ python, cwd: project.root, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" }, stdout: "pipe" }), config);
    if (problems.length > 0)
      throw new DevError(`the config names what the models lack:\n${problems.map((line) => `  ${line}`).join("\n")}\nfix it (codegen check checks again) and run codegen dev again`);
    const secret = await developmentSecret(project.root, config, process.env);
    for (const variable of Object.keys(secret)) say(`${variable}: a development secret kept in .codegen/dev-secret (export ${variable} to use another)`);
    const user = await developmentUser(project.root, config);
    const databaseUrl = await database(project, cleanups, lock);
    await lock.recordDatabase(databaseUrl);
    const origins = devOriginsEnv(config.auth?.cookie, port, project.frontend, process.env);
    for (const [variable, value] of Object.entries(origins)) say(`${variable}: ${value} (the origins whose pages may use the session cookie; export ${variable} to choose others)`);
    const env = { ...process.env, ...secret, ...origins, ...user, [project.databaseUrlEnv]: databaseUrl, PYTHONDONTWRITEBYTECODE: "1", SHUTDOWN_DRAIN_SECONDS: "0" };
    // Started ahead once a run has ended: the next save's steps and server import only the project.
    const checkPythons = warmInterpreters({ python, cwd: project.root, env, stdout: "pipe", modules: CHECK_MODULES, kept: 1, lock });
    const stepPythons = warmInterpreters({ python, cwd: project.root, env, stdout: "pipe", modules: STEP_MODULES, kept: 1, lock });
    const serverPythons = warmInterpreters({ python, cwd: project.root, env, stdout: "inherit", modules: SERVER_MODULES, kept: 1, lock });
    const warmed = [checkPythons, stepPythons, serverPythons];
    cleanups.push(() => Promise.all(warmed.map((interpreters) => interpreters.close())).then(() => undefined));
    const step: StepContext = { interpreters: stepPythons, root: project.root, urlEnv: project.databaseUrlEnv };
    const migrating = options.migrate !== false && existsSync(path.join(project.root, "alembic.ini"));
    await migrate(step, migrating, options.allowDataLoss === true);
    await seedIfEmpty(step, project);
    if (user.CODEGEN_DEV_PASSWORD) say(`sign in as ${DEV_USER}, password ${user.CODEGEN_DEV_PASSWORD} (kept in .codegen/dev-password; only codegen dev lets this user in)`);

    const backend = startBackend({
      interpreters: serverPythons,
      args: uvicornArgs(project, port, { packagePrefix: config.package_prefix ?? "", trustedProxies: config.trusted_proxies ?? [] }),
      cwd: project.root,
      probeUrl: `http://127.0.0.1:${port}/`,
      say,
    });
    const frontendSync = project.frontend ? keepFrontendInStep({ frontend: project.frontend, openApiUrl: `http://127.0.0.1:${port}/openapi.json`, say }) : undefined;
    if (frontendSync) cleanups.push(() => frontendSync.close());
    let announced = false;
    const served = () => {
      if (!announced) say(`backend on http://127.0.0.1:${port} (/docs, /health, /ready)${project.frontend ? `; front end from ${project.frontend}` : ""}; Ctrl-C stops everything`);
      announced = true;
      frontendSync?.schedule();
    };
    let watcher: Watcher | undefined;
    const reloader = reloadOnChange({
      watchDirs: appSourceDirs(project),
      ignoreDir: outDir,
      api: {
        settled: async () => watcher?.idle(),
        pending: () => watcher?.pending() ?? true,
        hold: (fn) => withOutputLock(outDir, fn),
      },
      check: async () => {
        try {
          return await checkConfig(checkPythons);
        } catch (error) {
          // The regeneration said what is wrong with the config already.
          if (error instanceof ConfigError) return [`${configName} is not valid (above)`];
          throw error;
        }
      },
      migrate: migrating ? () => migrateInStep(step, options.allowDataLoss === true) : undefined,
      backend,
      onServed: served,
      onRunEnded: () => warmed.forEach((interpreters) => interpreters.warmUp()),
      say,
    });
    // The backend's servers start in the reloader's runs, and stop with it.
    cleanups.push(() => reloader.close());
    watcher = await watchConfig(generation, options.onGenerateError, () => reloader.schedule());
    cleanups.push(() => watcher?.close());
    const frontend = project.frontend ? await serveFrontend(project.frontend, cleanups, lock) : undefined;

    // The first start is a run like any other: the code may have changed since the check above.
    reloader.schedule();
    const stop = options.stopRequested.then(() => undefined);
    const exited = frontend ? frontend.exited.then((status) => ({ name: "the front end's dev server", status })) : new Promise<never>(() => undefined);
    const outcome = await Promise.race([stop, exited]);
    if (outcome !== undefined) {
      say(`${outcome.name} exited with status ${outcome.status} (its output is above); stopping`);
      return outcome.status === 0 ? 1 : outcome.status;
    }
    return 0;
  } finally {
    let cleanedUp = true;
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        cleanedUp = false;
        say(`stopping failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // Otherwise the keeper stops what is left when this process exits, and the lock keeps its record.
    if (cleanedUp) await lock.release();
  }
}

/** Starts a long-running server in a process group of its own, owned by this run. */
async function serve(name: string, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }, cleanups: (() => Promise<void> | void)[], lock: DevLock): Promise<ProcessGroup> {
  const server = startServer(command, args, options);
  cleanups.push(() => server.stop());
  if (server.child.pid !== undefined) await lock.record({ name, pid: server.child.pid, group: true, signal: "SIGTERM" });
  return server;
}

async function database(project: DevProject, cleanups: (() => Promise<void> | void)[], lock: DevLock): Promise<string> {
  const given = process.env[project.databaseUrlEnv];
  if (given) {
    say(`database from ${project.databaseUrlEnv}`);
    return given;
  }
  const db: DevDatabase = await startProjectDatabase(project.root, project.name, lock);
  cleanups.push(() => db.stop());
  const where = path.relative(project.root, db.dataDir).startsWith("..") ? `${db.dataDir}: as root, its postgres user cannot enter the project` : `${path.relative(project.root, db.dataDir)}/`;
  say(`embedded PostgreSQL for this project (data in ${where}; set ${project.databaseUrlEnv} to use another server)`);
  return db.url;
}

type Generation = { target: Target; configFile: string; stdlibTargets: Target[]; cwd: string; lock: { timeoutMs: number } };

/** How long a regeneration waits for a run holding the API: its check and migration time out sooner; its start seldom takes this long. */
const API_HOLD_TIMEOUT_MS = 600_000;

/** What `codegen dev` reads of the parsed `be` config. */
type GeneratedConfig = { package_prefix?: string; trusted_proxies?: string[]; auth?: { secret_env?: string; algorithm?: string; cookie?: CookieOrigins } };

/** Generates the API once; returns the parsed config and where the API was written. */
async function generateOnce(generation: Generation): Promise<{ config: GeneratedConfig & ReferencingConfig; outDir: string }> {
  const config = await loadConfig(generation.configFile, generation.target, { stdlibTargets: generation.stdlibTargets });
  const result = await generate(generation);
  for (const warning of result.warnings) say(`warning: ${path.relative(generation.cwd, generation.configFile)}: ${warning.path || "(root)"}: ${warning.message}`);
  const counts = countActions(result.plan);
  say(`generated ${path.relative(generation.cwd, result.outDir) || "."}: ${counts.create + counts.overwrite} written, ${counts.unchanged} unchanged`);
  return { config: config as GeneratedConfig & ReferencingConfig, outDir: result.outDir };
}

async function watchConfig(generation: Generation, onError: (error: unknown) => void, onWritten: () => void): Promise<Watcher> {
  let first = true;
  return watchGeneration(generation, {
    onRun(result) {
      const counts = countActions(result.plan);
      // The watch starts with a run of its own, right after the first generation: nothing to say.
      if (!first || counts.create + counts.overwrite + counts.delete > 0) {
        say(`regenerated: ${counts.create + counts.overwrite} written, ${counts.delete} deleted`);
        onWritten();
      }
      first = false;
    },
    onError(error) {
      first = false;
      onError(error);
      say("the generated API was left as it was; fix the config and save again");
    },
  });
}

/**
 * Applies the migrations; then writes and applies one for what the models and the API
 * need beyond them, or (`write` false) says what that would be.
 */
async function migrate(step: StepContext, write: boolean, allowDataLoss: boolean): Promise<void> {
  if (!existsSync(path.join(step.root, "alembic.ini"))) {
    say("no alembic.ini: migrations skipped");
    return;
  }
  const report = write ? await migrateDatabase(step, allowDataLoss) : await planMigration(step);
  const lines = describeMigration(report, { retry: "codegen dev --allow-data-loss, or codegen db migrate --allow-data-loss", write: "codegen db migrate" });
  for (const line of lines) say(line);
}

/** Runs the project's seed module on a database whose model tables are all empty. */
async function seedIfEmpty(step: StepContext, project: DevProject): Promise<void> {
  const seed = projectSeed(project);
  if (seed === undefined) return;
  try {
    if ((await seedDatabase(step, seed, true)).seeded) say(`the database was empty: seeded it with ${seed.module}.seed`);
  } catch (error) {
    say(`seeding failed (${seed.module}.seed); the database was left as it was: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `npm run dev` in the front end (after `npm install` when it has no node_modules). */
async function serveFrontend(dir: string, cleanups: (() => Promise<void> | void)[], lock: DevLock): Promise<ProcessGroup> {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  if (!existsSync(path.join(dir, "node_modules"))) {
    say(`installing the front end's packages (npm install in ${dir})`);
    if ((await runCommand(npm, ["install"], { cwd: dir, env: process.env })) !== 0) throw new DevError(`npm install failed in ${dir}`);
  }
  return serve("vite", npm, ["run", "dev"], { cwd: dir, env: process.env }, cleanups, lock);
}
