import { createLogger, createShutdown } from "@dormant/service-kit";
import { loadTaxSubmitterConfig } from "./env.ts";
import { SERVICE, startTaxSubmitter } from "./worker.ts";

const logger = createLogger({ service: SERVICE });

async function main(): Promise<void> {
  const config = loadTaxSubmitterConfig();
  const shutdown = createShutdown(logger, { timeoutMs: config.shutdownTimeoutMs });
  const worker = await startTaxSubmitter(config, logger);
  shutdown.add("tax submitter", () => worker.close());
  logger.info(
    {
      tax_submission_url: config.tax.submissionUrl,
      gateway_test: config.tax.gatewayTest,
      give_up_after_seconds: config.pollGiveUpAfterSeconds,
      poll_prefetch: config.pollPrefetch,
      breaker: config.breaker,
    },
    "tax submitter serving tax.submit and consuming tax.poll",
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, "tax submitter failed to start");
  logger.flush?.();
  process.exitCode = 1;
});
