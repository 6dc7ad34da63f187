import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** infra/observability: the Prometheus configuration, the alert rules, the Grafana dashboards. */
export const OBSERVABILITY_DIR = fileURLToPath(new URL("../../../../infra/observability/", import.meta.url));

/** A PromQL expression and where it is written. */
export interface Query {
  where: string;
  expr: string;
}

/** Every alert and recording rule's expression in alerts.yml. */
export function alertQueries(dir = OBSERVABILITY_DIR): Query[] {
  const rules = parse(readFileSync(join(dir, "alerts.yml"), "utf8")) as {
    groups: Array<{ name: string; rules: Array<{ alert?: string; record?: string; expr: string }> }>;
  };
  return rules.groups.flatMap((group) =>
    group.rules.map((rule) => ({ where: `alerts.yml ${group.name}/${rule.alert ?? rule.record}`, expr: String(rule.expr) })),
  );
}

interface Panel {
  title?: string;
  targets?: Array<{ expr?: string }>;
  panels?: Panel[];
}

/** Every query of every panel (rows' panels included) of every dashboard under grafana/. */
export function dashboardQueries(dir = OBSERVABILITY_DIR): Query[] {
  const grafana = join(dir, "grafana");
  return readdirSync(grafana)
    .filter((file) => file.endsWith(".json"))
    .flatMap((file) => {
      const dashboard = JSON.parse(readFileSync(join(grafana, file), "utf8")) as { panels?: Panel[] };
      const walk = (panels: Panel[] = []): Query[] =>
        panels.flatMap((panel) => [
          ...(panel.targets ?? [])
            .filter((target) => typeof target.expr === "string")
            .map((target) => ({ where: `grafana/${file} "${panel.title}"`, expr: target.expr as string })),
          ...walk(panel.panels),
        ]);
      return walk(dashboard.panels);
    });
}

/** The static scrape targets of prometheus.yml, with their `app` label. */
export function staticScrapeTargets(dir = OBSERVABILITY_DIR): Array<{ job: string; target: string; app?: string }> {
  const config = parse(readFileSync(join(dir, "prometheus.yml"), "utf8")) as {
    scrape_configs: Array<{ job_name: string; static_configs?: Array<{ targets: string[]; labels?: { app?: string } }> }>;
  };
  return config.scrape_configs.flatMap((job) =>
    (job.static_configs ?? []).flatMap((group) =>
      group.targets.map((target) => ({ job: job.job_name, target, ...(group.labels?.app ? { app: group.labels.app } : {}) })),
    ),
  );
}
