import { describe, expect, it } from "vitest";
import { exportedMetrics, isExported } from "./exposition.ts";
import { metricNamesOf } from "./promql.ts";

describe("metric names of a PromQL expression", () => {
  it.each([
    ["up", ["up"]],
    ['sum by (queue, type) (increase(bus_dead_lettered_total{queue=~"a.*", type!="x"}[10m])) > 0', ["bus_dead_lettered_total"]],
    [
      'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{method="POST", route=~"/api/v1/filings/(ct600|accounts)"}[5m]))) > 5',
      ["http_request_duration_seconds_bucket"],
    ],
    [
      "sum(rate(authority_breaker_failures_total[5m])) by (breaker) / on (breaker) group_left sum by (breaker) (rate(authority_request_duration_seconds_count[5m] offset 1h)) > 1e-3",
      ["authority_breaker_failures_total", "authority_request_duration_seconds_count"],
    ],
    [
      'label_replace(max(filing_oldest_unfinished_age_seconds), "x", "$1", "type", "(.*)") and bool 2',
      ["filing_oldest_unfinished_age_seconds"],
    ],
    ['{__name__="webhook_backlog_age_seconds", service="notifier"} @ end()', ["webhook_backlog_age_seconds"]],
    [
      "max_over_time(process_resident_memory_bytes[1h:5m]) unless nodejs_eventloop_lag_p99_seconds # a comment: not_a_metric",
      ["nodejs_eventloop_lag_p99_seconds", "process_resident_memory_bytes"],
    ],
    ["-vector(1) + Inf * NaN - 0x1F + .5", []],
  ])("%s", (expr, names) => {
    expect(metricNamesOf(expr)).toEqual(names);
  });
});

describe("what an exposition exports", () => {
  const exported = exportedMetrics([
    [
      "# HELP authority_request_duration_seconds Duration",
      "# TYPE authority_request_duration_seconds histogram",
      "# HELP filing_submits_total Submits",
      "# TYPE filing_submits_total counter",
      'filing_submits_total{type="ct600",result="ok"} 3',
      "# TYPE rpc_seconds summary",
      "untyped_sample 1",
    ].join("\n"),
  ]);
  it("declared or sampled names, a histogram's series with no observation yet, Prometheus's own", () => {
    for (const name of [
      "filing_submits_total",
      "authority_request_duration_seconds_bucket",
      "authority_request_duration_seconds_count",
      "rpc_seconds_sum",
      "untyped_sample",
      "up",
    ]) {
      expect(isExported(name, exported), name).toBe(true);
    }
  });
  it("nothing else", () => {
    for (const name of ["filing_submits", "filing_submits_total_count", "rpc_seconds_bucket", "no_such_metric"]) {
      expect(isExported(name, exported), name).toBe(false);
    }
  });
});
