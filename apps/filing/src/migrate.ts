// Entry point run by `npm start` (and deploy jobs) before the filing service starts: creates the
// filing database if needed and applies its migrations.
import { parseEnv, runMigrationsEntry } from "@dormant/service-kit";
import { z } from "zod";
import { migrateFilingDatabase } from "./db/migrations.ts";
import { filingDatabaseEnvShape } from "./db/settings.ts";

await runMigrationsEntry("filing", (logger) =>
  migrateFilingDatabase(parseEnv(z.object(filingDatabaseEnvShape)).FILING_DATABASE_URL, logger),
);
