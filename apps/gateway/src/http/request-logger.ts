import type { Logger } from "@dormant/service-kit";
import type { Request, RequestHandler, Response } from "express";
import { pinoHttp } from "pino-http";

/**
 * One access-log line per request with its id (request_id, from the logger's request context),
 * method, path, status and duration. Bodies are never logged (they carry gateway passwords and
 * authentication codes), nor are headers or the query string.
 *
 * The access line is built only from those fields (no wrapping by pino's standard serializers),
 * so it is written by a child logger without the redaction pass, which costs several times more
 * than the line itself at thousands of requests per second. `req.log` / `res.log`, which code
 * may use for anything, stay the service-kit logger with its redaction.
 */
export function requestLogger(logger: Logger): RequestHandler {
  const accessLogger = logger.child({}, { redact: { paths: [], censor: "[REDACTED]" } });
  const middleware = pinoHttp<Request, Response>({
    logger: accessLogger,
    wrapSerializers: false,
    genReqId: (_req, res) => res.locals.requestId ?? "",
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split("?")[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: (err: { message?: string }) => ({ message: err.message }),
    },
  });
  return (req, res, next) => {
    req.log = logger;
    res.log = logger;
    middleware(req, res, next);
  };
}
