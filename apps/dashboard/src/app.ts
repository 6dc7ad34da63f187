import { fileURLToPath } from "node:url";
import { createOpsRouter, httpMetricsMiddleware, type ReadinessCheck } from "@dormant/service-kit";
import express, { type NextFunction, type Request, type Response } from "express";
import { GatewayNotFoundError } from "./bus/gateway.ts";
import { ServiceUnavailableError } from "./bus/unavailable.ts";
import { type FilingsOptions, filingsRoutes } from "./filings/routes.ts";
import { type MoneyOptions, moneyRoutes } from "./money/routes.ts";
import { accountRoutes } from "./pages/account.ts";
import { apiAccessRoutes } from "./pages/api-access.ts";
import { setupPasswordRoutes } from "./pages/setup-password.ts";
import { signInRoutes } from "./pages/signin.ts";
import { type SignUpOptions, signUpRoutes } from "./pages/signup.ts";
import { type DashboardDeps, isSignedIn } from "./web/context.ts";
import { errorPage } from "./web/error-pages.ts";
import { sendPage } from "./web/respond.ts";
import { securityHeaders, securityHeadersFor } from "./web/security-headers.ts";
import { csrfProtection, requireSignIn, sessionMiddleware } from "./web/session.ts";
import { type WebhooksOptions, webhooksRoutes } from "./webhooks/routes.ts";

export const PUBLIC_DIR = fileURLToPath(new URL("../public", import.meta.url));

export interface DashboardAppOptions {
  registry: Parameters<typeof createOpsRouter>[0]["registry"];
  checks: Record<string, ReadinessCheck>;
  isAcceptingWork?: () => boolean;
  trustProxyHops?: number;
  /** Sign-ups per client address (`limiter`); without it sign-ups are not limited. */
  signUp?: SignUpOptions;
  /** The Money page (balance, ledger, top-ups through billing); without it /money is not served. */
  money?: MoneyOptions & { checkoutOrigins: readonly string[] };
  /** The Filings pages (the live filings, through the filing service); without it /filings is not served. */
  filings?: FilingsOptions;
  /** The Webhooks pages (the account's endpoints, through the notifier); without it /webhooks is not served. */
  webhooks?: WebhooksOptions;
}

/**
 * The dashboard's Express app: ops endpoints, local assets, then the pages behind the session
 * (every POST checked for its CSRF token) and the error pages (the gateway not answering: 503).
 */
export function createDashboardApp(deps: DashboardDeps, options: DashboardAppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxyHops ?? 0);
  app.use(options.money ? securityHeadersFor(options.money.checkoutOrigins) : securityHeaders);
  app.use(
    createOpsRouter({
      registry: options.registry,
      checks: options.checks,
      ...(options.isAcceptingWork ? { isAcceptingWork: options.isAcceptingWork } : {}),
    }),
  );
  app.use(httpMetricsMiddleware(options.registry));
  app.use("/assets", express.static(PUBLIC_DIR, { index: false, fallthrough: false, maxAge: "1h" }));
  app.use(express.urlencoded({ extended: false, limit: "16kb", parameterLimit: 20 }));
  app.use(sessionMiddleware(deps.sessions));
  app.use(csrfProtection);

  app.get("/", (_req, res) => res.redirect(303, isSignedIn(res) ? "/account" : "/signin"));
  app.use(signUpRoutes(deps, options.signUp));
  app.use(signInRoutes(deps));
  app.use(setupPasswordRoutes(deps));
  app.use(["/account", "/api-access"], requireSignIn);
  app.use(accountRoutes(deps));
  app.use(apiAccessRoutes(deps));
  if (options.money) {
    app.use("/money", requireSignIn);
    app.use(moneyRoutes(deps, options.money));
  }
  if (options.filings) {
    app.use("/filings", requireSignIn);
    app.use(filingsRoutes(deps, options.filings));
  }
  if (options.webhooks) {
    app.use("/webhooks", requireSignIn);
    app.use(webhooksRoutes(deps, options.webhooks));
  }

  app.use((_req, res) => sendPage(res, 404, errorPage("not_found")));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    // A service the page asked did not answer: the 503 page, nothing done (a download cut off
    // midway by it is ended, so that the browser does not keep a truncated file).
    if (error instanceof ServiceUnavailableError) {
      deps.logger.warn({ err: error.cause, service: error.service }, `the ${error.service} did not answer a dashboard request`);
      if (res.headersSent) return void res.destroy();
      res.setHeader("Retry-After", "30");
      return sendPage(res, 503, errorPage("unavailable"));
    }
    if (res.headersSent) return;
    if (error instanceof GatewayNotFoundError) return sendPage(res, 404, errorPage("not_found"));
    const status = (error as { status?: number }).status;
    if (typeof status === "number" && status >= 400 && status < 500)
      return sendPage(res, status === 404 ? 404 : status, errorPage(status === 404 ? "not_found" : "bad_request"));
    deps.logger.error({ err: error }, "dashboard request failed");
    sendPage(res, isRedisDown(error) ? 503 : 500, errorPage(isRedisDown(error) ? "unavailable" : "internal"));
  });
  return app;
}

function isRedisDown(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return /Connection is closed|Stream isn't writeable|ECONNREFUSED|max retries/i.test(message);
}
