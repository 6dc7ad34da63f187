import { performance } from "node:perf_hooks";
import type { HttpMetrics, Logger } from "@dormant/service-kit";
import type { RequestHandler } from "express";

/** What an access line says: nothing a caller sent besides the method and the path. */
export interface AccessLine {
  request_id?: string;
  req: { method: string; path: string };
  res: { status: number };
  /** Milliseconds from the request reaching this middleware to the end of the response. */
  responseTime: number;
  err?: { message: string };
}

/**
 * One access-log line per request, written when the response ends: `request_id`, `req.method`,
 * `req.path` (never the query string), `res.status` and `responseTime` (ms). Bodies and headers
 * are never logged: they carry API keys, Idempotency-Keys, gateway passwords and authentication
 * codes.
 *
 * - "request completed" at info (status < 400), warn (4xx), or "request errored" at error (5xx,
 *   or the response emitted an error; `err` has only its message);
 * - "request aborted" (same levels) when the connection closed before the response was sent.
 *
 * The line is built only from those fields, so it is written by a child of the service logger
 * without its redaction pass (which costs several times the line itself at thousands of requests
 * per second); everything else logs through the redacting logger. `request_id` is set from
 * `res.locals.requestId` (the request-id middleware runs first), not left to the request context.
 *
 * When `metrics` is given, the same finish listener records `http_requests_total` and
 * `http_request_duration_seconds` (answered requests only, as service-kit's middleware does), so
 * a request costs one clock read at each end and one listener per event.
 */
export function accessLog(options: { logger: Logger; metrics?: HttpMetrics }): RequestHandler {
  const lines = options.logger.child(
    {},
    // Not pino's error serializer: the line keeps the message only (no stack, no properties).
    { redact: { paths: [], censor: "[REDACTED]" }, serializers: { err: (err: { message?: string }) => ({ message: err.message }) } },
  );
  const metrics = options.metrics;

  return (req, res, next) => {
    const start = performance.now();
    const url = req.url;
    let logged = false;

    const write = (error: Error | undefined, elapsedMs: number) => {
      logged = true;
      const status = res.statusCode;
      const queryAt = url.indexOf("?");
      const line: AccessLine = {
        req: { method: req.method, path: queryAt === -1 ? url : url.slice(0, queryAt) },
        res: { status },
        responseTime: Math.round(elapsedMs),
      };
      // Mounted after the request-id middleware, so always there; an undefined value would
      // override the request context's id in the line.
      if (res.locals.requestId !== undefined) line.request_id = res.locals.requestId;
      if (error !== undefined || status >= 500) {
        line.err = { message: error?.message ?? `failed with status code ${status}` };
        lines.error(line, "request errored");
        return;
      }
      const message = !req.readableAborted && res.writableEnded ? "request completed" : "request aborted";
      if (status >= 400) lines.warn(line, message);
      else lines.info(line, message);
    };

    const onFinish = () => {
      const elapsedMs = performance.now() - start;
      metrics?.record(req, res, elapsedMs / 1000);
      if (!logged) {
        res.removeListener("error", onCloseOrError);
        write(undefined, elapsedMs);
      }
    };
    // "close" always follows "finish"; alone, it means the connection went before the answer.
    function onCloseOrError(error?: Error) {
      if (logged) return;
      res.removeListener("error", onCloseOrError);
      write(error, performance.now() - start);
    }

    res.on("finish", onFinish);
    res.on("close", onCloseOrError);
    res.on("error", onCloseOrError);
    next();
  };
}
