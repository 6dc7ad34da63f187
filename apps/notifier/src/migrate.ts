// Entry point run by `npm start` (and deploy jobs) before the notifier starts: creates the notifier
// database if needed and applies its migrations.
import { parseEnv, runMigrationsEntry } from "@dormant/service-kit";
import { z } from "zod";
import { migrateNotifierDatabase } from "./db/migrations.ts";
import { notifierDatabaseEnvShape } from "./db/settings.ts";

await runMigrationsEntry("notifier", (logger) =>
  migrateNotifierDatabase(parseEnv(z.object(notifierDatabaseEnvShape)).NOTIFIER_DATABASE_URL, logger),
);
