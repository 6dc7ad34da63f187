// The notifier process: configuration, the service (RPC server, event and delivery consumers,
// sweeper, ops server), graceful shutdown on SIGTERM/SIGINT. `npm start` migrates first (migrate.ts).
import { runServiceProcess } from "@dormant/service-kit";
import { loadNotifierConfig } from "./env.ts";
import { startNotifier } from "./service.ts";

const config = loadNotifierConfig();
await runServiceProcess({ service: "notifier", config }, async ({ logger, shutdown }) => {
  const service = await startNotifier(config, { logger });
  shutdown.add("notifier", () => service.stop());
});
