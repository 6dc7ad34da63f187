// The filing service process: configuration, the service, graceful shutdown.
import { createLogger, createShutdown } from "@dormant/service-kit";
import { loadFilingConfig } from "./env.ts";
import { startFilingService } from "./service.ts";

const config = loadFilingConfig();
const logger = createLogger({
  service: "filing",
  version: config.SERVICE_VERSION,
  ...(config.LOG_LEVEL ? { level: config.LOG_LEVEL } : {}),
  ...(config.LOG_FORMAT ? { format: config.LOG_FORMAT } : {}),
});

try {
  const shutdown = createShutdown(logger, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  const service = await startFilingService(config, { logger, isAcceptingWork: () => !shutdown.stopping });
  // Stops serving filing.rpc and consuming filing.outcomes and filing.documents (handlers in flight finish), stops the
  // sweeper, flushes the outbox, then closes the ops server, the bus, Redis and the database.
  shutdown.add("filing service", () => service.stop());
  logger.info({ ops_port: service.opsPort }, "filing service started (filing.rpc, filing.outcomes, filing.documents, outbox relay, sweeper)");
} catch (error) {
  logger.fatal({ err: error }, "the filing service could not start");
  logger.flush?.();
  process.exit(1);
}
