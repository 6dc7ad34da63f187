// The filing service process: configuration, the service, graceful shutdown on SIGTERM/SIGINT.
// `npm start` migrates first (migrate.ts).
import { runServiceProcess } from "@dormant/service-kit";
import { loadFilingConfig } from "./env.ts";
import { startFilingService } from "./service.ts";

const config = loadFilingConfig();
await runServiceProcess({ service: "filing", config }, async ({ logger, shutdown }) => {
  const service = await startFilingService(config, { logger, isAcceptingWork: () => !shutdown.stopping });
  // Stops serving filing.rpc and consuming filing.outcomes and filing.documents (handlers in flight finish), stops the
  // sweeper, flushes the outbox, then closes the ops server, the bus, Redis and the database.
  shutdown.add("filing service", () => service.stop());
  logger.info(
    { ops_port: service.opsPort },
    "filing service started (filing.rpc, filing.outcomes, filing.documents, outbox relay, sweeper)",
  );
});
