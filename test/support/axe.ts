/**
 * Accessibility checks in the browser tests: axe-core (the npm package, the engine browser
 * extensions and CI tools run) injected into the page as it is, run over the whole document
 * in the state the test left it in (a dialog open, a form showing its errors, a drawer open).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One rule a page state breaks, with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: "minor" | "moderate" | "serious" | "critical" | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Every axe-core violation of the page as it is now: of axe's default rules (WCAG 2 A and AA,
 * and its best practices), or only of the rules `only` names.
 */
export async function axeViolations(page: Page, only?: readonly string[]): Promise<AxeViolation[]> {
  // A navigation replaces the document, and axe with it: inject it again when it is gone.
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.addScriptTag({ content: AXE_SOURCE });
  const script = `window.axe
    .run(document, { resultTypes: ["violations"]${only === undefined ? "" : `, runOnly: { type: "rule", values: ${JSON.stringify(only)} }`} })
    .then((result) => result.violations.map((rule) => ({
      id: rule.id,
      impact: rule.impact ?? null,
      help: rule.help,
      nodes: rule.nodes.map((node) => ({ target: node.target.join(" "), summary: node.failureSummary ?? "" })),
    })))`;
  return (await page.evaluate(script)) as AxeViolation[];
}

/** Violations by page state, for the assertions and the test's closing figures. */
export class AxeAudit {
  readonly states: { state: string; violations: AxeViolation[] }[] = [];

  /** Checks `page` as it is now, recorded as `state` (with only the rules `only` names, when given). */
  async check(page: Page, state: string, only?: readonly string[]): Promise<void> {
    this.states.push({ state, violations: await axeViolations(page, only) });
  }

  /** The violations of `impacts`, one line each: state, rule, impact, the first elements. */
  report(impacts: readonly string[]): string[] {
    return this.states.flatMap(({ state, violations }) =>
      violations
        .filter((violation) => impacts.includes(violation.impact ?? ""))
        .map((violation) => `${state}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes.slice(0, 3).map((node) => `${node.target} — ${node.summary}`).join("; ")}`),
    );
  }

  /** How many violations of each impact, over every state. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
    for (const { violations } of this.states) for (const violation of violations) counts[violation.impact ?? "minor"]! += 1;
    return counts;
  }
}
