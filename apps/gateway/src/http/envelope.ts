import type { AppError, ErrorEnvelope } from "@dormant/contracts";
import type { Response } from "express";
import { requestIdOf } from "./request-id.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * A JSON answer, byte for byte what `res.status(status).json(body)` sends here (the app sets no
 * JSON replacer, spacing or escaping): `Content-Type: application/json; charset=utf-8`, the
 * body as UTF-8 bytes with their Content-Length. It still goes out through `res.send`, which the
 * idempotency middleware watches; handing it bytes with the type already set spares Express's
 * content-type parsing and charset rewriting on every answer.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader("Content-Type", JSON_TYPE);
  res.send(Buffer.from(JSON.stringify(body), "utf8"));
}

/** `{ success: true, data }`: reads (spec: `request_id` is on submit and error responses). */
export function sendData(res: Response, status: number, data: unknown): void {
  sendJson(res, status, { success: true, data });
}

/** `{ success: true, data, request_id }`: submit responses. */
export function sendSubmitted(res: Response, data: unknown): void {
  sendJson(res, 202, { success: true, data, request_id: requestIdOf(res) });
}

/**
 * The public error envelope: code, message and details only (never a cause or a stack). An
 * INTERNAL_ERROR's text was written for the logs, not for callers: they get a fixed message.
 */
export function errorEnvelope(error: AppError, requestId: string): ErrorEnvelope {
  if (error.code === "INTERNAL_ERROR") {
    return {
      success: false,
      error: { code: "INTERNAL_ERROR", message: "Internal error; quote the request_id when asking for help" },
      request_id: requestId,
    };
  }
  return {
    success: false,
    error: { code: error.code, message: error.message, ...(error.details?.length ? { details: error.details } : {}) },
    request_id: requestId,
  };
}
