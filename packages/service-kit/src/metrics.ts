import type { NextFunction, Request, Response } from "express";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** A Prometheus registry of the service's own (never the global one), with process metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Records answered HTTP requests: `http_requests_total` and `http_request_duration_seconds`. */
export interface HttpMetrics {
  /**
   * Counts one answered request and its duration, labelled by method, route template (never
   * the raw path: `req.baseUrl` + `req.route.path`, "unmatched" when no route took it) and
   * status. Call it once the response has finished.
   */
  record(req: Request, res: Response, durationSeconds: number): void;
}

const MAX_CACHED_LABEL_SETS = 1000;

/**
 * The two HTTP metrics on `registry` (call once per registry). The label children of each
 * (method, route, status) are kept, so a request costs one map lookup, an increment and an
 * observation; routes are templates, so the set is small (bounded anyway).
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration in seconds",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const children = new Map<string, { inc: () => void; observe: (seconds: number) => void }>();
  return {
    record(req, res, durationSeconds) {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      const route = routePath ? `${req.baseUrl}${routePath}` : "unmatched";
      const key = `${req.method} ${res.statusCode} ${route}`;
      let child = children.get(key);
      if (child === undefined) {
        const labels = [req.method, route, String(res.statusCode)] as const;
        const counter = requests.labels(...labels);
        const histogram = duration.labels(...labels);
        child = { inc: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
        if (children.size >= MAX_CACHED_LABEL_SETS) children.clear();
        children.set(key, child);
      }
      child.inc();
      child.observe(durationSeconds);
    },
  };
}

/** Counts and times HTTP requests by method, route template (never the raw path) and status. */
export function httpMetricsMiddleware(registry: Registry) {
  const metrics = createHttpMetrics(registry);
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.on("finish", () => metrics.record(req, res, Number(process.hrtime.bigint() - start) / 1e9));
    next();
  };
}
