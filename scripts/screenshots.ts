/**
 * `npm run screenshots`: pictures of the blog's generated pages for the docs, taken by the
 * browser the tests use, of the stack the browser test runs (examples/blog's config/frontend.jsonnet, its
 * front end built and served by the backend, on embedded PostgreSQL with seeded articles), as
 * an editor, who sees every button: on a desktop (1200×760) and on a phone (390×844).
 * Writes docs/screenshots/{list,detail,form,list-dark,phone-list,phone-detail,phone-menu}.png.
 */
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { launchChromium } from "../test/support/chromium.js";
import { EDITOR_LOGIN } from "../test/e2e/support/blog.js";
import { withServedBlogFrontend } from "../test/e2e/support/frontend.js";

const OUT = resolve(fileURLToPath(import.meta.url), "../../docs/screenshots");
const taken: string[] = [];

await mkdir(OUT, { recursive: true });
await withServedBlogFrontend(async (_frontend, base) => {
  const desktop = await launchChromium({ viewport: { width: 1200, height: 760 } });
  try {
    const page = await desktop.context.newPage();
    await signIn(page, base);

    // The list of published articles, ordered by title: the filter bar unfolded, the flag chosen.
    await page.goto(`${base}/articles?order_by=title&published=true`);
    await page.getByRole("table").getByText("Articles, page 1").waitFor();
    await page.getByRole("button", { name: /^Filters/ }).click();
    await page.getByRole("group", { name: "Filter articles" }).waitFor();
    await shoot(page, "list");
    // The same in the dark theme the system setting selects.
    await page.emulateMedia({ colorScheme: "dark" });
    await shoot(page, "list-dark");
    await page.emulateMedia({ colorScheme: "light" });

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
    await shoot(page, "detail");

    // The create form, with the backend's 422 shown at its field.
    await page.goto(`${base}/articles/new`);
    await page.getByLabel("Title").fill("Notes on the Analytical Engine");
    await page.getByLabel("Body").fill("The engine weaves algebraic patterns.");
    await page.getByRole("combobox", { name: "Written by" }).fill("Ada");
    await page.getByRole("option", { name: "Ada Lovelace" }).click();
    for (const tag of ["news", "notes"]) {
      await page.getByRole("combobox", { name: "Tags", exact: true }).fill(tag);
      await page.getByRole("option", { name: tag, exact: true }).click();
    }
    await page.getByLabel("Word count").fill("2.5");
    await page.getByRole("button", { name: "Create" }).click();
    await page.locator("[aria-invalid='true']").first().waitFor();
    await shoot(page, "form", { fullPage: true });
  } finally {
    await desktop.close();
  }

  const phone = await launchChromium({ viewport: { width: 390, height: 844 } });
  try {
    const page = await phone.context.newPage();
    await signIn(page, base);
    // The list: the navigation behind Menu, the filters folded, the table scrolling in its box.
    await page.goto(`${base}/articles?order_by=title`);
    await page.getByRole("table").getByText("Articles, page 1").waitFor();
    await shoot(page, "phone-list");
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("navigation", { name: "Resources" }).getByRole("link", { name: "Comments" }).waitFor();
    await shoot(page, "phone-menu");
    // A record: each value below its label.
    await page.getByRole("navigation", { name: "Resources" }).getByRole("link", { name: "Articles" }).click();
    await page.getByRole("table").getByRole("link").first().click();
    await page.locator("dl.record").waitFor();
    await shoot(page, "phone-detail");
  } finally {
    await phone.close();
  }
});
console.log(`screenshots: ${taken.join(", ")}`);

async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill(EDITOR_LOGIN.username);
  await page.getByLabel("Password").fill(EDITOR_LOGIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText(`Signed in as ${EDITOR_LOGIN.username}`).waitFor();
}

async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path, ...options });
  taken.push(path);
}
