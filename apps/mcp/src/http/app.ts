import { apiRoot } from "../api-url.ts";
import { createMetricsRegistry, createOpsRouter, type Logger } from "@dormant/service-kit";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { createMcpHandler } from "./mcp-endpoint.ts";
import { rebindingGuard } from "./rebinding-guard.ts";
import type { SessionStore } from "./sessions.ts";

export interface McpAppDeps {
  apiUrl: string;
  logger: Logger;
  sessions: SessionStore;
  maxSessions: number;
  maxSessionsPerKey: number;
  /** DNS-rebinding protection of `/mcp`: the Host names and browser Origins it answers. */
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  /** Proxies whose X-Forwarded-For names the caller (Express's "trust proxy"). */
  trustProxyHops: number;
  clientAddressSecret?: string | undefined;
  isAcceptingWork: () => boolean;
}

/**
 * The Streamable HTTP endpoint `/mcp` (behind the DNS-rebinding guard; the ops endpoints are not,
 * so probes that name the pod's address still reach them) and the ops endpoints (`/healthz`, `/readyz`: the API's /health answers, `/metrics`). */
export function createMcpApp(deps: McpAppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.trustProxyHops);
  const health = `${apiRoot(deps.apiUrl)}/health`;
  app.use(
    createOpsRouter({
      registry: createMetricsRegistry("mcp"),
      isAcceptingWork: deps.isAcceptingWork,
      checks: {
        api: async () => {
          const response = await fetch(health, { signal: AbortSignal.timeout(2000) });
          if (!response.ok) throw new Error(`the API's /health answered ${response.status}`);
        },
      },
    }),
  );
  const handle = createMcpHandler(deps);
  app.all(
    "/mcp",
    ...rebindingGuard(deps.allowedHosts, deps.allowedOrigins),
    express.json({ limit: "1mb" }),
    (req: Request, res: Response, next: NextFunction) => {
      handle(req, res).catch(next);
    },
  );
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = statusOf(error);
    if (status >= 500)
      deps.logger.error({ err: error instanceof Error ? { name: error.name, message: error.message } : "unknown" }, "mcp request failed");
    if (res.headersSent) return;
    res.status(status).json({
      jsonrpc: "2.0",
      error: { code: status === 400 ? -32700 : -32603, message: status === 400 ? "Parse error" : "Internal error" },
      id: null,
    });
  });
  return app;
}

/** A body parser's 4xx (bad JSON, too large) keeps its status; anything else is a 500. */
function statusOf(error: unknown): number {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" && error.status >= 400)
    return error.status;
  return 500;
}
