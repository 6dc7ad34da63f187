import { createLogger, createShutdown } from "@dormant/service-kit";
import { loadRegistrySubmitterConfig } from "./env.ts";
import { SERVICE, startRegistrySubmitter } from "./worker.ts";

const logger = createLogger({ service: SERVICE });

async function main(): Promise<void> {
  const config = loadRegistrySubmitterConfig();
  const shutdown = createShutdown(logger, { timeoutMs: config.shutdownTimeoutMs });
  const worker = await startRegistrySubmitter(config, logger);
  shutdown.add("registry submitter", () => worker.close());
  logger.info(
    {
      registry_gateway_url: config.registry.gatewayUrl,
      gateway_test: config.registry.gatewayTest,
      poll_interval_seconds: config.registry.pollIntervalSeconds,
      give_up_after_seconds: config.pollGiveUpAfterSeconds,
      poll_prefetch: config.pollPrefetch,
      breaker: config.breaker,
    },
    "registry submitter serving registry.submit and consuming registry.poll",
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, "registry submitter failed to start");
  logger.flush?.();
  process.exitCode = 1;
});
