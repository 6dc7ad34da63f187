import type { NextFunction, Request, Response } from "express";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** A Prometheus registry of the service's own (never the global one), with process metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Counts and times HTTP requests by method, route template (never the raw path) and status. */
export function httpMetricsMiddleware(registry: Registry) {
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
  return (req: Request, res: Response, next: NextFunction) => {
    const end = duration.startTimer();
    res.on("finish", () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      const route = routePath ? `${req.baseUrl}${routePath}` : "unmatched";
      const labels = { method: req.method, route, status: String(res.statusCode) };
      requests.inc(labels);
      end(labels);
    });
    next();
  };
}
