// The billing process: configuration, the service (bus RPC server and event consumer, webhook and
// ops HTTP server), graceful shutdown on SIGTERM/SIGINT. `npm start` migrates first (migrate.ts).
import { runServiceProcess } from "@dormant/service-kit";
import { loadBillingConfig } from "./env.ts";
import { startBilling } from "./service.ts";

const config = loadBillingConfig();
await runServiceProcess({ service: "billing", config }, async ({ logger, shutdown }) => {
  const service = await startBilling(config, { logger });
  shutdown.add("billing", () => service.stop());
});
