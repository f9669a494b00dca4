/**
 * The projects of test/e2e/hooks.test.ts and test/e2e/opa.test.ts, which
 * test/e2e/pyright.test.ts type-checks too: the blog example with a config of the test's own
 * (and, for hooks, a module of its own).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { prepareBlogProject } from "./blog.js";

// Category create gets a post hook that always raises.
const HOOKS_OVERRIDE = `
(import 'hooks.jsonnet') {
  resources: [
    if resource.model == 'blog.models.Category' then resource {
      operations: [if op == 'create' then { name: 'create', post: 'blog.flaky.explode' } else op for op in super.operations],
    }
    else resource
    for resource in super.resources
  ],
}
`;

const FLAKY = `"""A post hook that fails, for tests."""

from sqlalchemy.ext.asyncio import AsyncSession

from blog.models import Category


def explode(category: Category, *, session: AsyncSession) -> None:
    raise RuntimeError(f"no announcement for {category.slug}")
`;

/** The blog generated from config/hooks.jsonnet, with a post hook on category create that always raises (`blog/flaky.py`). */
export async function prepareHooksProject(): Promise<string> {
  const dir = await prepareBlogProject("config/override.jsonnet", HOOKS_OVERRIDE);
  await writeFile(join(dir, "blog", "flaky.py"), FLAKY);
  return dir;
}

/**
 * The OPA example's config with `auth.opa.timeout_seconds` raised from 0.5 to 2, so a busy
 * machine never turns a slow but working OPA into a 503.
 */
export const OPA_CONFIG = "(import 'opa.jsonnet') + { auth+: { opa+: { timeout_seconds: 2 } } }";

/** The blog generated from {@link OPA_CONFIG}, with `extra` (jsonnet, `+ { … }`) added to it. */
export function prepareOpaProject(extra = ""): Promise<string> {
  return prepareBlogProject("config/override.jsonnet", `${OPA_CONFIG}${extra}`);
}
