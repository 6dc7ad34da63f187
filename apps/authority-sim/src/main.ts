import { createLogger, createShutdown } from "@dormant/service-kit";
import { loadConfig } from "./env.ts";
import { startSimServer } from "./server.ts";

const logger = createLogger({ service: "authority-sim" });

async function main(): Promise<void> {
  const config = loadConfig();
  const shutdown = createShutdown(logger, { timeoutMs: config.shutdownTimeoutMs });
  const sim = await startSimServer(config, { logger, isAcceptingWork: () => !shutdown.stopping });
  shutdown.add("http server", () => sim.close());
  logger.info(
    {
      tax: sim.urls.tax,
      registry: sim.urls.registry,
      registryGateway: sim.urls.registryGateway,
      registryData: sim.urls.registryData,
      control: sim.urls.control,
      // Not an authority: the local stand-in of the payment provider (never in production).
      paymentProviderStandIn: config.paymentProvider ? `${sim.url}/payment-provider/v1` : "off",
      timing: config.timing,
    },
    `authority simulator listening on ${sim.url}`,
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, "authority simulator failed to start");
  logger.flush?.();
  process.exitCode = 1;
});
