// The billing process: configuration, the service (bus RPC server and event consumer, webhook and
// ops HTTP server), graceful shutdown on SIGTERM/SIGINT. `npm start` migrates first (migrate.ts).
import { createLogger, createShutdown } from "@dormant/service-kit";
import { loadBillingConfig } from "./env.ts";
import { startBilling } from "./service.ts";

const config = loadBillingConfig();
const logger = createLogger({
  service: "billing",
  version: config.SERVICE_VERSION,
  ...(config.LOG_LEVEL ? { level: config.LOG_LEVEL } : {}),
  ...(config.LOG_FORMAT ? { format: config.LOG_FORMAT } : {}),
});

try {
  const shutdown = createShutdown(logger, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  const service = await startBilling(config, { logger });
  shutdown.add("billing", () => service.stop());
} catch (error) {
  logger.fatal({ err: error }, "billing could not start");
  logger.flush?.();
  process.exit(1);
}
