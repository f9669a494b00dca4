/**
 * `npm run screenshots`: pictures of the blog's generated pages for the docs, taken by the
 * browser the tests use, of the stack the browser test runs (examples/blog's config/frontend.jsonnet, its
 * front end built and served by the backend, on embedded PostgreSQL with seeded articles), as
 * an editor, who sees every button.
 * Writes docs/screenshots/{list,detail,form}.png.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../test/support/chromium.js";
import { startPostgres } from "../test/support/postgres.js";
import { ensureVenv } from "../test/support/venv.js";
import { EDITOR_LOGIN, serveBlog, signedInClient } from "../test/e2e/support/blog.js";
import { NPM, prepareBlogFrontend, run, seedArticles } from "../test/e2e/support/frontend.js";

const OUT = resolve(fileURLToPath(import.meta.url), "../../docs/screenshots");

const venv = await ensureVenv();
const [postgres, frontend] = await Promise.all([startPostgres(), prepareBlogFrontend(venv)]);
try {
  await run(NPM, ["run", "build"], frontend.frontendDir);
  const server = await serveBlog(frontend.backendDir, venv, postgres.asyncUrl, { JWT_SECRET: randomBytes(48).toString("base64url") }, { frontend: join(frontend.frontendDir, "dist") });
  const browser = await launchChromium({ viewport: { width: 1200, height: 760 } });
  try {
    const api = await signedInClient(`${server.baseUrl}/api`, EDITOR_LOGIN);
    await seedArticles(api);
    const page = await browser.context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    await page.getByLabel("Username").fill(EDITOR_LOGIN.username);
    await page.getByLabel("Password").fill(EDITOR_LOGIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Signed in as grace").waitFor();
    await mkdir(OUT, { recursive: true });

    // The list of published articles, ordered by title: the filter bar shows the flag chosen.
    await page.goto(`${server.baseUrl}/articles?order_by=title&published=true`);
    await page.getByRole("table").getByText("Articles, page 1").waitFor();
    await page.getByRole("group", { name: "Filter articles" }).waitFor();
    await page.screenshot({ path: join(OUT, "list.png") });

    // A detail, after two actions with params.
    await page.getByRole("table").getByRole("link").first().click();
    await page.getByRole("button", { name: "Schedule article…" }).click();
    await page.getByLabel("Publish on").fill("2030-01-02");
    await page.getByRole("button", { name: "Run" }).click();
    await page.getByRole("status").filter({ hasText: "Schedule article: done." }).waitFor();
    await page.getByRole("button", { name: "Tag article…" }).click();
    await page.getByRole("combobox", { name: "Tag" }).fill("news");
    await page.getByRole("option", { name: "news" }).click();
    await page.getByRole("button", { name: "Run" }).click();
    await page.locator("dl.record").getByRole("link", { name: "news" }).waitFor();
    await page.screenshot({ path: join(OUT, "detail.png") });

    // The create form, with the backend's 422 shown at its field.
    await page.goto(`${server.baseUrl}/articles/new`);
    await page.getByLabel("Title").fill("Notes on the Analytical Engine");
    await page.getByLabel("Body").fill("The engine weaves algebraic patterns.");
    await page.getByRole("combobox", { name: "Written by" }).fill("Ada");
    await page.getByRole("option", { name: "Ada Lovelace" }).click();
    await page.getByLabel("Word count").fill("2.5");
    await page.getByRole("button", { name: "Create" }).click();
    await page.locator("[aria-invalid='true']").first().waitFor();
    await page.screenshot({ path: join(OUT, "form.png"), fullPage: true });
    console.log(`screenshots: ${["list", "detail", "form"].map((name) => join(OUT, `${name}.png`)).join(", ")}`);
  } finally {
    await browser.close();
    await server.process.stop();
  }
} finally {
  await postgres.stop();
  for (const dir of [frontend.backendDir, dirname(frontend.frontendDir)]) await rm(dir, { recursive: true, force: true });
}
