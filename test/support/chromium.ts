/**
 * The browser of the end-to-end tests: Debian's Chromium, driven by playwright-core.
 *
 * Playwright's own browser download is not reachable from our machines, so the tests use
 * the distribution's build at /usr/bin/chromium and install it with apt-get when it is
 * missing (CI runs as root). Every launch gets a fresh profile directory, removed on close.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type BrowserContext, chromium } from "playwright-core";

const run = promisify(execFile);

export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a quiet, headless, sandbox-less Chromium that never calls home. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let installing: Promise<void> | undefined;

/** How long each apt-get step may take: Chromium and its libraries are some 100 MB to fetch; past it the step is stuck. */
const APT_TIMEOUT_MS = 20 * 60_000;

/** Installs Debian's chromium package unless /usr/bin/chromium exists. */
export function ensureChromium(): Promise<void> {
  if (existsSync(CHROMIUM)) return Promise.resolve();
  installing ??= (async () => {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    try {
      const options = { env, maxBuffer: 64 * 1024 * 1024, timeout: APT_TIMEOUT_MS };
      await run("apt-get", ["update", "-qq"], options);
      await run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], options);
    } catch (error) {
      const { stderr, killed } = error as { stderr?: string; killed?: boolean };
      const detail = `${killed ? `killed after its timeout of ${APT_TIMEOUT_MS} ms; its output so far:\n` : ""}${stderr ?? String(error)}`;
      throw new Error(`could not install Chromium with apt-get (the browser tests need root and Debian's packages):\n${detail}`);
    }
    if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is still missing`);
  })().catch((error: unknown) => {
    installing = undefined;
    throw error;
  });
  return installing;
}

/** A browser with a fresh profile; closing it removes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Installs Chromium if needed and launches it headless with a fresh profile directory
 * (Playwright passes it as `--user-data-dir`, which it only accepts this way).
 */
export async function launchChromium(options: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<TestBrowser> {
  await ensureChromium();
  const profile = await mkdtemp(join(tmpdir(), "codegen-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    // The browser's language (navigator.languages, Accept-Language); Chromium's own when unset.
    ...(options.locale !== undefined && { locale: options.locale }),
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
