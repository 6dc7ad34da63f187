// Entry point run by `npm start` (and deploy jobs) before the filing service starts: creates the
// filing database if needed and applies its migrations.
import { createLogger, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { migrateFilingDatabase } from "./db/migrations.ts";
import { filingDatabaseEnvShape } from "./db/settings.ts";

const logger = createLogger({ service: "filing-migrate" });
try {
  const env = parseEnv(z.object(filingDatabaseEnvShape));
  const applied = await migrateFilingDatabase(env.FILING_DATABASE_URL, logger);
  logger.info({ applied: applied.length }, applied.length ? "filing database migrated" : "filing database up to date");
} catch (error) {
  logger.error({ err: error }, "migrating the filing database failed");
  process.exitCode = 1;
}
