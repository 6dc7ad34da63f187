// @dormant/ops/observability: what the system tests need to check infra/observability against
// the apps' live /metrics: the queries of the alert rules and dashboards, the metric names a
// PromQL expression uses, and what an exposition exports.
export { alertQueries, dashboardQueries, OBSERVABILITY_DIR, staticScrapeTargets } from "./files.ts";
export type { Query } from "./files.ts";
export { exportedMetrics, isExported, PROMETHEUS_OWN } from "./exposition.ts";
export type { Exported } from "./exposition.ts";
export { metricNamesOf } from "./promql.ts";
