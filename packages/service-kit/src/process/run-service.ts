import { createLogger, type Logger, type LoggerSettings } from "../logger.ts";
import { createShutdown, type Shutdown } from "../shutdown.ts";
import { StartupStoppedError } from "../startup/startup-gate.ts";

/** The settings of `baseEnvSchema` a service process reads to log and to shut down. */
export interface ServiceProcessConfig {
  SERVICE_VERSION: string;
  SHUTDOWN_TIMEOUT_MS: number;
  LOG_LEVEL?: LoggerSettings["level"];
  LOG_FORMAT?: LoggerSettings["format"];
}

export interface ServiceProcessOptions {
  /** The `service` field of every log line, and the subject of the start-up failure line. */
  service: string;
  config: ServiceProcessConfig;
  /** Batches log writes (see `LoggerSettings.outputBuffer`); busy HTTP processes use it. */
  outputBuffer?: LoggerSettings["outputBuffer"];
}

/** The process's logger, configured from `config`. */
export function createServiceLogger({ service, config, outputBuffer }: ServiceProcessOptions): Logger {
  return createLogger({
    service,
    version: config.SERVICE_VERSION,
    ...(outputBuffer ? { outputBuffer } : {}),
    ...(config.LOG_LEVEL ? { level: config.LOG_LEVEL } : {}),
    ...(config.LOG_FORMAT ? { format: config.LOG_FORMAT } : {}),
  });
}

/**
 * The body of every service's `main.ts`: the logger, graceful shutdown on SIGTERM/SIGINT, then
 * `start`, which opens the service and registers its shutdown steps. A start that fails logs
 * the error as fatal and exits 1, so a supervisor sees the failure at once (an unreachable
 * dependency is not a failure: `start` waits for it through a StartupGate).
 */
export async function runServiceProcess(
  options: ServiceProcessOptions,
  start: (process: { logger: Logger; shutdown: Shutdown }) => Promise<void>,
): Promise<void> {
  const logger = createServiceLogger(options);
  try {
    const shutdown = createShutdown(logger, { timeoutMs: options.config.SHUTDOWN_TIMEOUT_MS });
    await start({ logger, shutdown });
  } catch (error) {
    // A stop signal during the start-up waits: the shutdown in progress exits 0.
    if (error instanceof StartupStoppedError) return;
    logger.fatal({ err: error }, `${options.service} could not start`);
    logger.flush?.();
    process.exit(1);
  }
}
