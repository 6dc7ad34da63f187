// Entry point run by `npm start` (and deploy jobs) before the gateway starts: creates the gateway
// database if needed and applies its migrations.
import { createLogger, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { gatewayDatabaseEnvShape } from "./db/settings.ts";
import { migrateGatewayDatabase } from "./db/migrations.ts";

const logger = createLogger({ service: "gateway-migrate" });
try {
  const env = parseEnv(z.object(gatewayDatabaseEnvShape));
  const applied = await migrateGatewayDatabase(env.GATEWAY_DATABASE_URL, logger);
  logger.info({ applied: applied.length }, applied.length ? "gateway database migrated" : "gateway database up to date");
} catch (error) {
  logger.error({ err: error }, "migrating the gateway database failed");
  process.exitCode = 1;
}
