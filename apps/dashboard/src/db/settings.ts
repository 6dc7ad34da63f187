import { z } from "zod";

/** Where the dashboard database lives: one name and one default for env.ts, the migrator and the admin CLI. */
export const dashboardDatabaseEnvShape = {
  DASHBOARD_DATABASE_URL: z.url().default("postgresql://postgres@127.0.0.1:5432/dormant_dashboard"),
};
