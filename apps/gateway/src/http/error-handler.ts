import { AppError, isAppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { ErrorRequestHandler } from "express";
import { bodyParserError } from "./json-body.ts";
import { errorEnvelope, sendJson } from "./envelope.ts";
import { requestIdOf } from "./request-id.ts";

/**
 * Client errors raised by Express's own machinery (http-errors with a 4xx `status`: a path
 * parameter that is not valid percent-encoding, a body that does not decompress, ...): the
 * request is at fault, so never a 500. Their text is not echoed.
 */
function expressClientError(error: unknown): AppError | undefined {
  const status = typeof error === "object" && error !== null ? (error as { status?: unknown }).status : undefined;
  if (typeof status !== "number" || status < 400 || status > 499) return undefined;
  if (status === 404) return new AppError("NOT_FOUND", "No such endpoint; the API is described at /api/v1/openapi.json");
  if (status === 413) return new AppError("PAYLOAD_TOO_LARGE", "The request body is too large");
  if (status === 415) return new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json");
  return new AppError("VALIDATION_ERROR", "The request could not be read", {
    details: [{ field: "request", message: "could not be read" }],
  });
}

/** Whatever was thrown, as an AppError: unknown failures become a bare 500 INTERNAL_ERROR. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  return bodyParserError(error) ?? expressClientError(error) ?? new AppError("INTERNAL_ERROR", "Internal error", { cause: error });
}

/**
 * The last middleware: every failure answers in the error envelope with the request id, the
 * HTTP status of its code and Retry-After when the code has one. Messages are the AppError's
 * own (written for callers); causes and stacks only reach the log, and only for 5xx.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const appError = toAppError(error);
    if (appError.httpStatus >= 500) {
      // A dependency out of reach (503) is expected now and then; anything else is a bug.
      const level = appError.httpStatus === 503 ? "warn" : "error";
      logger[level]({ err: appError.cause ?? appError, code: appError.code }, "request failed");
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (appError.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(appError.retryAfterSeconds));
    sendJson(res, appError.httpStatus, errorEnvelope(appError, requestIdOf(res)));
  };
}
