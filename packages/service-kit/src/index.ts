export { baseEnvSchema, parseEnv, envBoolean, envPositiveInt, ConfigError } from "./env.ts";
export { createLogger, REDACT_PATHS } from "./logger.ts";
export type { Logger, LoggerSettings } from "./logger.ts";
export { runWithRequestContext, currentRequestContext } from "./request-context.ts";
export type { RequestContext } from "./request-context.ts";
export { createHttpMetrics, createMetricsRegistry, httpMetricsMiddleware } from "./metrics.ts";
export type { HttpMetrics } from "./metrics.ts";
export { createOpsRouter, startOpsServer } from "./health.ts";
export type { OpsOptions, ReadinessCheck } from "./health.ts";
export { canonicalJson } from "./canonical-json.ts";
export { createShutdown } from "./shutdown.ts";
export { isEntryPoint } from "./process/is-entry-point.ts";
export {
  type AdminContext,
  adminFailure,
  type CliStreams,
  type CommandOutput,
  type DiscoveredApp,
  PROCESS_STREAMS,
} from "./process/admin-context.ts";
export { type AdminCommandOptions, type AdminCommandResult, runAdminCommand, UsageError } from "./process/admin-command.ts";
export { createServiceLogger, runServiceProcess } from "./process/run-service.ts";
export type { ServiceProcessConfig, ServiceProcessOptions } from "./process/run-service.ts";
export type { Shutdown } from "./shutdown.ts";
export { ensureDatabase } from "./db/ensure-database.ts";
export { applyMigrations, readMigrations, migrationsFingerprint } from "./db/migrate.ts";
export type { Migration } from "./db/migrate.ts";
export { runMigrationsEntry } from "./db/run-migrations-entry.ts";
export { PeriodicTask } from "./periodic-task.ts";
export { endPoolFully } from "./db/end-pool.ts";
export {
  StartupGate,
  StartupStoppedError,
  listenWhileStarting,
  redisConnection,
  redactUrlCredentials,
  startupDelayMs,
} from "./startup/startup-gate.ts";
export type { DependencyWaits, RedisLike, StartingServer, StartupBackoff } from "./startup/startup-gate.ts";
export { LuaScript } from "./redis/lua-script.ts";
export type { LuaScriptRedis } from "./redis/lua-script.ts";
