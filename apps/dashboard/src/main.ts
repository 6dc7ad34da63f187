// The dashboard process (`npm start`): the agents' web pages on DASHBOARD_PORT (default 3200),
// with /healthz, /readyz and /metrics; graceful shutdown on SIGTERM/SIGINT. `npm start` migrates
// its database first (migrate.ts).
import { runServiceProcess } from "@dormant/service-kit";
import { loadDashboardConfig } from "./env.ts";
import { startDashboard } from "./service.ts";

const config = loadDashboardConfig();
await runServiceProcess({ service: "dashboard", config }, async ({ logger, shutdown }) => {
  const service = await startDashboard(config, { logger, isAcceptingWork: () => !shutdown.stopping });
  shutdown.add("dashboard", () => service.stop());
  logger.info({ port: service.port }, `dashboard: ${service.url} (sign up, sign in, API keys, money, filings, webhooks)`);
});
