import { createLogger, type Logger } from "../logger.ts";

/**
 * The body of every service's `migrate.ts` (run by `npm start` and deploy jobs before the
 * service starts): `migrate` reads its settings and applies the migrations; the outcome is one
 * log line, and a failure sets exit code 1.
 */
export async function runMigrationsEntry(database: string, migrate: (logger: Logger) => Promise<string[]>): Promise<void> {
  const logger = createLogger({ service: `${database}-migrate` });
  try {
    const applied = await migrate(logger);
    logger.info({ applied: applied.length }, applied.length ? `${database} database migrated` : `${database} database up to date`);
  } catch (error) {
    logger.error({ err: error }, `migrating the ${database} database failed`);
    process.exitCode = 1;
  }
}
