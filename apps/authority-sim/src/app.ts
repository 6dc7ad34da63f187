import { createMetricsRegistry, createOpsRouter, httpMetricsMiddleware } from "@dormant/service-kit";
import express, { type ErrorRequestHandler, type Express } from "express";
import type { SimConfig } from "./config.ts";
import { createSimContext, type ContextOptions, type SimContext } from "./context.ts";
import { controlRouter } from "./control/control-router.ts";
import { PREFIX } from "./authority-paths.ts";
import { simBaseUrl } from "./http/base-url.ts";
import { PAYMENT_PROVIDER_PREFIX, paymentProviderRouter } from "./payment-provider/router.ts";
import { registryDataApi } from "./registry-data/registry-data-router.ts";
import { registryGatewayRouter } from "./registry-gateway/registry-gateway-router.ts";
import { taxRouter } from "./tax/tax-router.ts";

export interface SimAppOptions extends ContextOptions {
  /** False once shutdown starts (readiness turns 503). */
  isAcceptingWork?: () => boolean;
}

export interface SimApp {
  app: Express;
  context: SimContext;
  metrics: ReturnType<typeof createMetricsRegistry>;
}

/**
 * The simulator as an Express app: the three authorities, the control API and the ops endpoints,
 * plus (outside production) the local stand-in of the payment provider.
 */
export function createSimApp(config: SimConfig, options: SimAppOptions = {}): SimApp {
  const context = createSimContext(config, options);
  const metrics = createMetricsRegistry("authority-sim");
  const app = express();
  app.disable("x-powered-by");
  app.use(httpMetricsMiddleware(metrics));
  app.use(
    createOpsRouter({ registry: metrics, checks: {}, ...(options.isAcceptingWork ? { isAcceptingWork: options.isAcceptingWork } : {}) }),
  );
  app.use(PREFIX.tax, taxRouter(context));
  app.use(PREFIX.registry, registryGatewayRouter(context));
  app.use(PREFIX.registryData, registryDataApi(context));
  app.use(PREFIX.control, controlRouter(context));
  // Not an authority: the local stand-in of the payment provider (off in production).
  const provider = config.paymentProvider;
  if (provider) {
    const baseUrl = (req: Parameters<typeof simBaseUrl>[0]) => provider.checkoutPublicUrl ?? simBaseUrl(req, config);
    app.use(PAYMENT_PROVIDER_PREFIX, paymentProviderRouter(provider, { baseUrl, logger: options.logger }));
  }
  app.use((_req, res) => {
    res.status(404).type("text/plain").send("Not Found");
  });
  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    options.logger?.error({ err: error, method: req.method, path: req.path }, "request failed");
    if (res.headersSent) {
      res.socket?.destroy();
      return;
    }
    res.status(500).type("text/plain").send("Internal Server Error");
  };
  app.use(onError);
  return { app, context, metrics };
}
