import { createServer, type Server } from "node:http";
import express, { type Router } from "express";
import type { Registry } from "prom-client";
import type { Logger } from "pino";

/** A named readiness check: resolves when the dependency answers, throws when it does not. */
export type ReadinessCheck = () => Promise<void>;

export interface OpsOptions {
  registry: Registry;
  checks: Record<string, ReadinessCheck>;
  /** Returns false once shutdown starts so load balancers stop sending work. */
  isAcceptingWork?: () => boolean;
  checkTimeoutMs?: number;
}

function withTimeout(check: ReadinessCheck, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    check()
      .finally(() => clearTimeout(timer))
      .then(resolve, (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
  });
}

/**
 * `/healthz` (the process is alive), `/readyz` (every dependency answers and the service is not
 * shutting down; 503 with the failing checks otherwise) and `/metrics` (Prometheus text).
 * `/readyz` names the answering process (`pid`), so that whoever started it can tell its own
 * process from another server that happens to listen on the same port.
 */
export function createOpsRouter(options: OpsOptions): Router {
  const router = express.Router();
  const timeout = options.checkTimeoutMs ?? 2000;
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const results: Record<string, string> = {};
    let ready = options.isAcceptingWork ? options.isAcceptingWork() : true;
    if (!ready) results.shutdown = "shutting down";
    await Promise.all(
      Object.entries(options.checks).map(async ([name, check]) => {
        try {
          await withTimeout(check, timeout);
          results[name] = "ok";
        } catch (error) {
          ready = false;
          results[name] = error instanceof Error ? error.message : String(error);
        }
      }),
    );
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not_ready", pid: process.pid, checks: results });
  });
  router.get("/metrics", async (_req, res) => {
    res.setHeader("Content-Type", options.registry.contentType);
    res.send(await options.registry.metrics());
  });
  return router;
}

/** For workers without a public HTTP API: the ops endpoints on their own port. */
export async function startOpsServer(options: OpsOptions & { port: number; host?: string; logger: Logger }): Promise<Server> {
  const app = express();
  app.disable("x-powered-by");
  app.use(createOpsRouter(options));
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "0.0.0.0", () => resolve());
  });
  const address = server.address();
  options.logger.info(
    { port: typeof address === "object" && address ? address.port : options.port },
    "ops endpoints listening (/healthz, /readyz, /metrics)",
  );
  return server;
}
