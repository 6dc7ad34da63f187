// The gateway process: configuration, connections, the HTTP server, graceful shutdown.
import { createServer } from "node:http";
import { runServiceProcess } from "@dormant/service-kit";
import { createApp } from "./app.ts";
import { loadGatewayConfig } from "./env.ts";
import { openGatewayResources } from "./infrastructure.ts";

const config = loadGatewayConfig();
// Log lines (an access line per request) gather up to 4 KiB or 100 ms before a write: a busy
// gateway makes one write of many lines instead of one per request. Written at exit; a process
// killed outright (SIGKILL, out of memory) loses at most that.
await runServiceProcess({ service: "gateway", config, outputBuffer: { bytes: 4096, intervalMs: 100 } }, async ({ logger, shutdown }) => {
  const resources = await openGatewayResources(config, logger);
  const app = createApp({ ...resources, isAcceptingWork: () => !shutdown.stopping });
  const server = createServer(app);
  // Stop accepting connections, let requests in flight finish (idle keep-alive connections are
  // closed at once), then close the bus, Redis and the database.
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
  shutdown.add("connections", () => resources.close());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  logger.info({ port: config.PORT }, "gateway listening (/api/v1, /docs, /healthz, /readyz, /metrics)");
});
