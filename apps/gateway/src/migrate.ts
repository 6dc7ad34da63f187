// Entry point run by `npm start` (and deploy jobs) before the gateway starts: creates the gateway
// database if needed and applies its migrations.
import { parseEnv, runMigrationsEntry } from "@dormant/service-kit";
import { z } from "zod";
import { migrateGatewayDatabase } from "./db/migrations.ts";
import { gatewayDatabaseEnvShape } from "./db/settings.ts";

await runMigrationsEntry("gateway", (logger) =>
  migrateGatewayDatabase(parseEnv(z.object(gatewayDatabaseEnvShape)).GATEWAY_DATABASE_URL, logger),
);
