// Billing's HTTP surface (BILLING_PORT): the payment provider's webhook and the ops endpoints.
// It is not part of the public API: the ingress routes only /webhooks/payments to it, from the
// provider. Order: metrics, ops (/healthz /readyz /metrics), the webhook, 404, errors.
import { createOpsRouter, httpMetricsMiddleware, type Logger, type ReadinessCheck } from "@dormant/service-kit";
import express, { type ErrorRequestHandler, type Express } from "express";
import type { Registry } from "prom-client";
import type { BillingDb } from "../db/client.ts";
import type { BillingMetrics } from "../metrics.ts";
import { paymentWebhookRouter, type PaymentWebhookSettings } from "../webhook/payments-route.ts";

export interface BillingAppDeps {
  db: BillingDb;
  logger: Logger;
  registry: Registry;
  metrics: BillingMetrics;
  webhook: PaymentWebhookSettings;
  checks: Record<string, ReadinessCheck>;
  isAcceptingWork?: () => boolean;
}

export function createBillingApp(deps: BillingAppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(httpMetricsMiddleware(deps.registry));
  app.use(
    createOpsRouter({
      registry: deps.registry,
      checks: deps.checks,
      ...(deps.isAcceptingWork ? { isAcceptingWork: deps.isAcceptingWork } : {}),
    }),
  );
  app.use(paymentWebhookRouter({ db: deps.db, logger: deps.logger, metrics: deps.metrics, settings: deps.webhook }));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: "not_found", message: "No such endpoint" } });
  });
  const errors: ErrorRequestHandler = (error: { status?: number; type?: string }, _req, res, _next) => {
    if (error.type === "entity.too.large") {
      res.status(413).json({ received: false, error: { code: "payload_too_large", message: "The body is larger than 16 KB" } });
      return;
    }
    deps.logger.error({ err: error }, "billing http request failed");
    res
      .status(error.status && error.status >= 400 && error.status < 500 ? error.status : 500)
      .json({ error: { code: "internal_error", message: "Internal error" } });
  };
  app.use(errors);
  return app;
}
