import { createLogger, createShutdown, type Logger } from "@dormant/service-kit";
import type { SubmitterConfig } from "./submitter-config.ts";
import type { SubmitterWorker } from "./submitter-worker.ts";

export interface SubmitterProcess<C extends SubmitterConfig> {
  /** Names the logger (the worker's SERVICE). */
  service: string;
  /** How log lines and the shutdown step name the worker ("tax submitter"). */
  name: string;
  /** Reads the configuration from the environment (throws ConfigError). */
  loadConfig(): C;
  start(config: C, logger: Logger): Promise<SubmitterWorker>;
}

/**
 * What the worker logs once it serves: its authority's settings worth seeing at boot (the shared
 * ones, give-up time, poll prefetch and breaker, follow them) and the message.
 */
export type StartedLine<C> = (config: C) => [fields: Record<string, unknown>, message: string];

/**
 * A worker process's `main`: loads the configuration, starts the worker with its graceful stop
 * on SIGTERM/SIGINT (bounded by SHUTDOWN_TIMEOUT_MS) and logs what it serves; a failure to start
 * is logged as fatal and sets exit code 1.
 */
export function runSubmitterWorker<C extends SubmitterConfig>(definition: SubmitterProcess<C>, started: StartedLine<C>): Promise<void> {
  const logger = createLogger({ service: definition.service });
  const main = async (): Promise<void> => {
    const config = definition.loadConfig();
    const shutdown = createShutdown(logger, { timeoutMs: config.shutdownTimeoutMs });
    const worker = await definition.start(config, logger);
    shutdown.add(definition.name, () => worker.close());
    const [fields, message] = started(config);
    logger.info(
      { ...fields, give_up_after_seconds: config.pollGiveUpAfterSeconds, poll_prefetch: config.pollPrefetch, breaker: config.breaker },
      message,
    );
  };
  return main().catch((error: unknown) => {
    logger.fatal({ err: error }, `${definition.name} failed to start`);
    logger.flush?.();
    process.exitCode = 1;
  });
}
