import type { Logger } from "pino";
import { flushSpans } from "./tracing/flush.ts";

export interface Shutdown {
  /** Registers a step; steps run one after another in the order they were added. */
  add(name: string, step: () => Promise<void> | void): void;
  /** True once a stop signal arrived (readiness turns false). */
  readonly stopping: boolean;
  /** Runs every step (used by signals, and by tests that stop a service in-process). */
  run(reason: string): Promise<void>;
}

/**
 * Graceful shutdown: on SIGTERM/SIGINT stop taking new work, let in-flight work finish, close
 * connections, then exit 0. If the steps take longer than `timeoutMs` the process exits 1.
 */
export function createShutdown(logger: Logger, { timeoutMs = 20_000, exit = true } = {}): Shutdown {
  const steps: { name: string; step: () => Promise<void> | void }[] = [];
  let stopping = false;
  let running: Promise<void> | undefined;

  const run = (reason: string): Promise<void> => {
    if (running) return running;
    stopping = true;
    logger.info({ reason }, "shutting down: finishing in-flight work");
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, "shutdown took too long; exiting");
      if (exit) process.exit(1);
    }, timeoutMs);
    timer.unref();
    running = (async () => {
      for (const { name, step } of steps) {
        try {
          await step();
          logger.debug({ step: name }, "shutdown step done");
        } catch (error) {
          logger.error({ err: error, step: name }, "shutdown step failed");
        }
      }
      // Last, the spans of everything the steps did (nothing when tracing is off).
      await flushSpans();
      clearTimeout(timer);
      logger.info("stopped");
      if (exit) {
        logger.flush?.();
        process.exit(0);
      }
    })();
    return running;
  };

  if (exit) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void run(signal));
  }
  return {
    add: (name, step) => void steps.push({ name, step }),
    get stopping() {
      return stopping;
    },
    run,
  };
}
