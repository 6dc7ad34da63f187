import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { alertQueries, dashboardQueries, OBSERVABILITY_DIR, staticScrapeTargets } from "./files.ts";
import { metricNamesOf } from "./promql.ts";

// infra/observability checked by Prometheus's own promtool (Debian package `prometheus`; `.ci/run`
// installs it, scripts/lib/system-tools.mjs): required, never skipped. That every metric the
// queries use is exported by some app is checked against the live system:
// tests/system/src/filing-outcomes.test.ts.
function promtool(...args: string[]): string {
  try {
    return execFileSync("promtool", args, { cwd: OBSERVABILITY_DIR, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const failure = error as { code?: string; stdout?: string; stderr?: string };
    if (failure.code === "ENOENT") {
      throw new Error(
        "promtool was not found: install it with `sudo apt-get install -y prometheus` (Debian/Ubuntu) or `brew install prometheus`",
      );
    }
    throw new Error(`promtool ${args.join(" ")} failed:\n${failure.stdout ?? ""}${failure.stderr ?? ""}`);
  }
}

const APPS_DIR = join(OBSERVABILITY_DIR, "..", "..", "apps");

describe("infra/observability", () => {
  it("the alert rules pass promtool check rules, and their unit tests pass promtool test rules", () => {
    expect(promtool("check", "rules", "alerts.yml")).toMatch(/SUCCESS: \d+ rules found/);
    expect(promtool("test", "rules", "alerts.test.yml")).toContain("SUCCESS");
  });

  it("prometheus.yml passes promtool check config, its rule files included", () => {
    expect(promtool("check", "config", "prometheus.yml")).toContain("is valid prometheus config file syntax");
  });

  it("scrapes every app at its ops port (package.json dormant.opsPort)", () => {
    const apps = readdirSync(APPS_DIR)
      .map((name) => ({ name, dormant: JSON.parse(readFileSync(join(APPS_DIR, name, "package.json"), "utf8")).dormant }))
      .filter((app) => typeof app.dormant?.opsPort === "number");
    expect(apps.length).toBeGreaterThanOrEqual(7);
    const targets = staticScrapeTargets();
    for (const app of apps) expect(targets).toContainEqual({ job: "dormant", target: `127.0.0.1:${app.dormant.opsPort}`, app: app.name });
    expect(targets.filter((target) => target.job === "dormant")).toHaveLength(apps.length);
  });

  it("covers what section 2 of issue 15 asks of the alerts", () => {
    const alerts = alertQueries().map((query) => query.where.split("/")[1]);
    for (const name of [
      "DeadLettersParked",
      "AuthorityBreakerOpen",
      "FilingNotAcknowledged",
      "Ct600AnswerOverdue",
      "SubmitLatencyHigh",
      "AuthorityErrorRateHigh",
      "WebhookBacklogOld",
    ]) {
      expect(alerts).toContain(name);
    }
  });

  it("every query of the alerts and the dashboard selects at least one metric", () => {
    const queries = [...alertQueries(), ...dashboardQueries()];
    expect(dashboardQueries().length).toBeGreaterThanOrEqual(15);
    for (const query of queries) expect(metricNamesOf(query.expr), `${query.where}: ${query.expr}`).not.toEqual([]);
  });
});
