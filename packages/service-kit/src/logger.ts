import { pino, type Logger, type LoggerOptions } from "pino";
import { currentRequestContext } from "./request-context.ts";
import { traceLogFields } from "./tracing/log-fields.ts";

export type { Logger } from "pino";

/**
 * Paths whose values never reach a log: API keys, gateway passwords, company authentication
 * codes, presenter credentials, authorisation headers and whole credential objects.
 */
export const REDACT_PATHS = [
  'req.headers["x-api-key"]',
  "req.headers.authorization",
  'req.headers["idempotency-key"]',
  'headers["x-api-key"]',
  "headers.authorization",
  "apiKey",
  "api_key",
  "*.apiKey",
  "*.api_key",
  "password",
  "*.password",
  "credentials",
  "*.credentials",
  "*.*.credentials",
  "government_gateway_password",
  "*.government_gateway_password",
  "*.*.government_gateway_password",
  "company_auth_code",
  "*.company_auth_code",
  "*.*.company_auth_code",
  "companyAuthCode",
  "*.companyAuthCode",
  "gatewayPassword",
  "*.gatewayPassword",
  "presenterAuthCode",
  "*.presenterAuthCode",
  "secret",
  "*.secret",
];

export interface LoggerSettings {
  service: string;
  version?: string;
  level?: LoggerOptions["level"];
  /** "pretty" for people at a terminal, "json" for machines (the default outside development). */
  format?: "json" | "pretty";
  /** Where JSON lines go (tests pass a stream to read them back). */
  destination?: NodeJS.WritableStream;
  /**
   * JSON lines to standard output are written asynchronously, each as soon as the previous
   * write is done (the default). With `outputBuffer`, lines gather until `bytes` are waiting or
   * `intervalMs` have passed, so a busy service makes one write of many lines instead of one per
   * line (each write wakes a thread of the pool and the log collector). Whatever waits is
   * written at exit (process.exit and uncaught exceptions included); only a process killed
   * outright (SIGKILL, out of memory) loses it: at most `bytes`, or `intervalMs` of lines.
   */
  outputBuffer?: { bytes: number; intervalMs: number };
}

function defaultLevel(): string {
  if (process.env.LOG_LEVEL) return process.env.LOG_LEVEL;
  return process.env.NODE_ENV === "test" || process.env.VITEST ? "silent" : "info";
}

function defaultFormat(): "json" | "pretty" {
  if (process.env.LOG_FORMAT === "json" || process.env.LOG_FORMAT === "pretty") return process.env.LOG_FORMAT;
  return process.env.NODE_ENV === "development" ? "pretty" : "json";
}

/**
 * pino with the service's base fields, redaction, and on every line the current request id and
 * the active span's `trace_id` and `span_id` (OpenTelemetry; see docs/operations/tracing.md).
 */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? defaultLevel(),
    base: { service: settings.service, version: settings.version ?? process.env.SERVICE_VERSION ?? "1.0.0" },
    redact: { paths: REDACT_PATHS, censor: "[REDACTED]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const context = currentRequestContext();
      const fields = traceLogFields();
      return context ? { request_id: context.requestId, ...fields } : fields;
    },
  };
  const format = settings.format ?? defaultFormat();
  if (settings.destination) return pino(options, settings.destination as pino.DestinationStream);
  if (format === "pretty") {
    return pino({
      ...options,
      transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,version" } },
    });
  }
  if (settings.outputBuffer) {
    const { bytes, intervalMs } = settings.outputBuffer;
    return pino(options, pino.destination({ dest: 1, sync: false, minLength: bytes, periodicFlush: intervalMs }));
  }
  return pino(options);
}
