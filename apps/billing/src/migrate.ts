// Entry point run by `npm start` (and deploy jobs) before billing starts: creates the billing
// database if needed and applies its migrations.
import { createLogger, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { migrateBillingDatabase } from "./db/migrations.ts";
import { billingDatabaseEnvShape } from "./db/settings.ts";

const logger = createLogger({ service: "billing-migrate" });
try {
  const env = parseEnv(z.object(billingDatabaseEnvShape));
  const applied = await migrateBillingDatabase(env.BILLING_DATABASE_URL, logger);
  logger.info({ applied: applied.length }, applied.length ? "billing database migrated" : "billing database up to date");
} catch (error) {
  logger.error({ err: error }, "migrating the billing database failed");
  process.exitCode = 1;
}
