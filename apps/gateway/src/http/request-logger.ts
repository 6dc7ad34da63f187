import type { Logger } from "@dormant/service-kit";
import type { Request, RequestHandler, Response } from "express";
import { pinoHttp } from "pino-http";

/**
 * One access-log line per request with its id, method, path, status and duration. Bodies are
 * never logged (they carry gateway passwords and authentication codes), nor are headers or the
 * query string.
 */
export function requestLogger(logger: Logger): RequestHandler {
  const middleware = pinoHttp<Request, Response>({
    logger,
    // The id is logged once, as request_id, by the logger's request context (see request-id.ts).
    genReqId: (_req, res) => res.locals.requestId ?? "",
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split("?")[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
  return (req, res, next) => middleware(req, res, next);
}
