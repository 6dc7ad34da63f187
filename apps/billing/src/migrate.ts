// Entry point run by `npm start` (and deploy jobs) before billing starts: creates the billing
// database if needed and applies its migrations.
import { parseEnv, runMigrationsEntry } from "@dormant/service-kit";
import { z } from "zod";
import { migrateBillingDatabase } from "./db/migrations.ts";
import { billingDatabaseEnvShape } from "./db/settings.ts";

await runMigrationsEntry("billing", (logger) =>
  migrateBillingDatabase(parseEnv(z.object(billingDatabaseEnvShape)).BILLING_DATABASE_URL, logger),
);
