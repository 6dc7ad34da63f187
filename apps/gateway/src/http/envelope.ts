import type { AppError, ErrorEnvelope } from "@dormant/contracts";
import type { Response } from "express";
import { requestIdOf } from "./request-id.ts";

/** `{ success: true, data }`: reads (spec: `request_id` is on submit and error responses). */
export function sendData(res: Response, status: number, data: unknown): void {
  res.status(status).json({ success: true, data });
}

/** `{ success: true, data, request_id }`: submit responses. */
export function sendSubmitted(res: Response, data: unknown): void {
  res.status(202).json({ success: true, data, request_id: requestIdOf(res) });
}

/**
 * The public error envelope: code, message and details only (never a cause or a stack). An
 * INTERNAL_ERROR's text was written for the logs, not for callers: they get a fixed message.
 */
export function errorEnvelope(error: AppError, requestId: string): ErrorEnvelope {
  if (error.code === "INTERNAL_ERROR") {
    return { success: false, error: { code: "INTERNAL_ERROR", message: "Internal error; quote the request_id when asking for help" }, request_id: requestId };
  }
  return {
    success: false,
    error: { code: error.code, message: error.message, ...(error.details?.length ? { details: error.details } : {}) },
    request_id: requestId,
  };
}
