// The gateway process: configuration, connections, the HTTP server, graceful shutdown.
import { listenWhileStarting, runServiceProcess, StartupGate } from "@dormant/service-kit";
import { serveGatewayRpc } from "./accounts-rpc/serve.ts";
import { createApp } from "./app.ts";
import { loadGatewayConfig } from "./env.ts";
import { openGatewayResources } from "./infrastructure.ts";

const config = loadGatewayConfig();
// Log lines (an access line per request) gather up to 4 KiB or 100 ms before a write: a busy
// gateway makes one write of many lines instead of one per request. Written at exit; a process
// killed outright (SIGKILL, out of memory) loses at most that.
await runServiceProcess({ service: "gateway", config, outputBuffer: { bytes: 4096, intervalMs: 100 } }, async ({ logger, shutdown }) => {
  // The port answers at once: /healthz 200, /readyz 503 and the API 503 while Postgres, Redis
  // and RabbitMQ are waited for (each retried with capped backoff), then the app takes over.
  const gate = new StartupGate(logger);
  const { server, serve } = await listenWhileStarting({ port: config.PORT, host: config.HOST, gate });
  // Stop accepting connections, let requests in flight finish (idle keep-alive connections are
  // closed at once), then close the bus, Redis and the database.
  shutdown.add("start-up waits", () => gate.stop());
  shutdown.add(
    "http server",
    () =>
      new Promise<void>((resolve) => {
        const sweeper = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(sweeper);
          resolve();
        });
        server.closeIdleConnections();
      }),
  );
  const resources = await openGatewayResources(config, logger, gate);
  shutdown.add("connections", () => resources.close());
  serve(createApp({ ...resources, isAcceptingWork: () => !shutdown.stopping }));
  // The dashboard's accounts and keys; closing the bus (the "connections" step) stops serving,
  // letting calls in flight finish, before the database closes.
  await serveGatewayRpc({
    bus: resources.bus,
    db: resources.db,
    apiKeyPepper: config.apiKeyPepper,
    logger,
    redis: resources.redis,
    redisKeyPrefix: resources.settings.redisKeyPrefix,
  });
  gate.ready();
  logger.info({ port: config.PORT }, "gateway listening (/api/v1, /docs, /healthz, /readyz, /metrics; gateway.rpc)");
});
