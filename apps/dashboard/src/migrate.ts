// Entry point run by `npm start` (and deploy jobs) before the dashboard starts: creates the
// dashboard database if needed and applies its migrations.
import { parseEnv, runMigrationsEntry } from "@dormant/service-kit";
import { z } from "zod";
import { migrateDashboardDatabase } from "./db/migrations.ts";
import { dashboardDatabaseEnvShape } from "./db/settings.ts";

await runMigrationsEntry("dashboard", (logger) =>
  migrateDashboardDatabase(parseEnv(z.object(dashboardDatabaseEnvShape)).DASHBOARD_DATABASE_URL, logger),
);
