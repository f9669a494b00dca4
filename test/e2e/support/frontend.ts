/**
 * The blog's generated front end, for the browser tests and the scripts: the
 * blog backend with cookie sessions and groups (config/frontend.jsonnet), its OpenAPI document saved into a
 * front end made by `fe_root` with the example's config/fe.jsonnet, the pages and the
 * client generated, packages linked from the cache. Building and serving are the caller's
 * (the tests), or withServedBlogFrontend's (the scripts).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { generateWithCli } from "../../helpers/codegen-cli.js";
import type { JsonClient } from "../../support/http.js";
import { linkNodeModules } from "../../support/node-modules.js";
import { startPostgres } from "../../support/postgres.js";
import { type Venv, ensureVenv } from "../../support/venv.js";
import { EDITOR_LOGIN, EXAMPLE_DIR, prepareBlogProject, serveBlog, signedInClient } from "./blog.js";

const execFileAsync = promisify(execFile);

export const FRONTEND_EXAMPLE = join(EXAMPLE_DIR, "frontend");

/** Environment of child processes: no Node options or npm script variables of the test run. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("npm_package_") && !key.startsWith("npm_lifecycle_")),
  );
  return { ...env, NODE_OPTIONS: "", NO_COLOR: "1", FORCE_COLOR: "0", PYTHONDONTWRITEBYTECODE: "1", ...extra };
}

/**
 * How long one command (npm install, tsc, vite build, prettier) may run: several times what
 * the slowest takes on a busy 2-core machine; past it the command is stuck, and is killed.
 */
export const STEP_TIMEOUT_MS = 300_000;

interface CommandError {
  stdout?: string;
  stderr?: string;
  message: string;
  killed?: boolean;
}

/** Runs a command to completion; resolves with its output, or rejects with it unless it exits 0 within STEP_TIMEOUT_MS. */
export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = childEnv()): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: STEP_TIMEOUT_MS });
    return stdout + stderr;
  } catch (error) {
    const { stdout = "", stderr = "", message, killed } = error as CommandError;
    throw new Error(`${command} ${args.join(" ")} ${killed ? `was killed after ${STEP_TIMEOUT_MS} ms` : "failed"} in ${cwd}:\n${stdout}${stderr || message}`);
  }
}

/** Like `run`, for a command expected to fail: resolves with its output; one killed at its timeout rejects. */
export async function runFailing(command: string, args: string[], cwd: string): Promise<string> {
  try {
    await execFileAsync(command, args, { cwd, env: childEnv(), maxBuffer: 64 * 1024 * 1024, timeout: STEP_TIMEOUT_MS });
  } catch (error) {
    const { stdout = "", stderr = "", killed } = error as CommandError;
    if (killed) throw new Error(`${command} ${args.join(" ")} was killed after ${STEP_TIMEOUT_MS} ms in ${cwd}:\n${stdout}${stderr}`);
    return stdout + stderr;
  }
  throw new Error(`${command} ${args.join(" ")} succeeded in ${cwd}; it should have failed`);
}

export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

export interface BlogFrontend {
  /** The backend project (examples/blog with blog/api generated). */
  backendDir: string;
  /** The front end's root. */
  frontendDir: string;
}

/** The blog backend's OpenAPI document, as FastAPI writes it (no server, no database). */
export async function openApiDocument(backendDir: string, venv: Venv): Promise<string> {
  const env = childEnv({
    PYTHONPATH: backendDir,
    JWT_SECRET: "x".repeat(64),
    DATABASE_URL: "postgresql+asyncpg://nobody:nothing@127.0.0.1:9/none",
  });
  return run(venv.python, ["-c", "import json; from blog.main import app; print(json.dumps(app.openapi(), indent=2))"], backendDir, env);
}

/** Everything up to `npm run openapi-ts`: the front end is ready to type-check and build. */
export async function prepareBlogFrontend(venv: Venv): Promise<BlogFrontend> {
  const backendDir = await prepareBlogProject("config/frontend.jsonnet");
  const frontendDir = join(await mkdtemp(join(tmpdir(), "codegen-frontend-")), "blog-web");
  await mkdir(join(frontendDir, "config"), { recursive: true });
  await generateWithCli(frontendDir, "fe_root", join(FRONTEND_EXAMPLE, "fe_root.jsonnet"), ".");
  await copyFile(join(FRONTEND_EXAMPLE, "config", "fe.jsonnet"), join(frontendDir, "config", "fe.jsonnet"));
  const [document] = await Promise.all([openApiDocument(backendDir, venv), linkNodeModules(frontendDir)]);
  await writeFile(join(frontendDir, "openapi.json"), document);
  await generateWithCli(frontendDir, "fe", "config/fe.jsonnet", ".");
  await run(NPM, ["run", "openapi-ts"], frontendDir);
  return { backendDir, frontendDir };
}

/** An author, two tags, and 25 articles by her, some published, some rated, some scheduled. */
export async function seedArticles(client: JsonClient): Promise<{ titles: string[] }> {
  const author = await client.post("/authors", { name: "Ada Lovelace", email: "ada@example.com" });
  assert.equal(author.status, 201, JSON.stringify(author.body));
  for (const name of ["news", "notes"]) assert.equal((await client.post("/tags", { name })).status, 201);
  const titles = Array.from({ length: 25 }, (_, index) => `Note ${String.fromCharCode(65 + ((index * 7) % 26))}${index}`);
  for (const title of titles) {
    const index = titles.indexOf(title);
    const article = await client.post("/articles", {
      title,
      body: "one two three",
      word_count: 3,
      author_id: author.body.id,
      published: index % 3 === 0,
      rating: index % 4 === 0 ? null : 3 + (index % 5) / 2,
      publish_on: index % 5 === 0 ? `2031-0${1 + (index % 9)}-15` : null,
    });
    assert.equal(article.status, 201, JSON.stringify(article.body));
  }
  return { titles };
}

/**
 * For the scripts (screenshots, figures): the blog's front end built, served by its backend
 * on a fresh PostgreSQL, with the articles of `seedArticles`; `use` gets the front end's
 * directory and the server's base URL. Everything is stopped and deleted afterwards.
 */
export async function withServedBlogFrontend(use: (frontend: BlogFrontend, base: string) => Promise<void>): Promise<void> {
  const venv = await ensureVenv();
  const [postgres, frontend] = await Promise.all([startPostgres(), prepareBlogFrontend(venv)]);
  try {
    await run(NPM, ["run", "build"], frontend.frontendDir);
    const server = await serveBlog(frontend.backendDir, venv, postgres.asyncUrl, { JWT_SECRET: randomBytes(48).toString("base64url") }, { frontend: join(frontend.frontendDir, "dist") });
    try {
      await seedArticles(await signedInClient(`${server.baseUrl}/api`, EDITOR_LOGIN));
      await use(frontend, server.baseUrl);
    } finally {
      await server.process.stop();
    }
  } finally {
    await postgres.stop();
    for (const dir of [frontend.backendDir, dirname(frontend.frontendDir)]) await rm(dir, { recursive: true, force: true });
  }
}
