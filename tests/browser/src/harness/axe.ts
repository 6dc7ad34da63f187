import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/**
 * axe-core's own build, read from node_modules: nothing is fetched from the network. It is
 * evaluated through the DevTools protocol rather than added as a <script> (page.addScriptTag): that
 * tag is an inline script, which the dashboard's Content-Security-Policy rightly refuses, and
 * turning the policy off (bypassCSP) would hide the dashboard's own violations from the guard.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The impacts that fail a test; "minor" and "moderate" ones are reported by axe but tolerated. */
const FAILING_IMPACTS = new Set(["serious", "critical"]);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string; summary: string }>;
}

// Runs in the page (a string: the workspaces' TypeScript has no DOM library). Plain objects only.
const RUN_AXE = `axe.run(document, { resultTypes: ["violations"] }).then((results) =>
  results.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(" "), summary: n.failureSummary ?? "" })),
  })),
)`;

/** Every axe-core violation of the page as it is now (WCAG 2 A/AA and best practices: axe's default rules). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate("typeof window.axe !== 'undefined'"))) await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  return (await page.evaluate(RUN_AXE)) as AxeViolation[];
}

/** The violations one per paragraph: rule, impact, what it asks, each element with axe's advice. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.id} (${violation.impact ?? "no impact"}): ${violation.help}`,
        `  ${violation.helpUrl}`,
        ...violation.nodes.map((node) => `  at ${node.target}\n    ${node.summary.replaceAll("\n", "\n    ")}`),
      ].join("\n"),
    )
    .join("\n\n");
}

/** Fails, listing them, when axe-core finds a serious or critical violation on the page. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const failing = (await axeViolations(page)).filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""));
  if (failing.length > 0) {
    throw new Error(
      `${name} (${page.url()}): ${failing.length} serious or critical accessibility violation(s):\n\n${formatViolations(failing)}`,
    );
  }
}
