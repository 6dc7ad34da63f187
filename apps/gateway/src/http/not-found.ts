import { AppError } from "@dormant/contracts";
import type { RequestHandler } from "express";

/** Any route the API does not have: 404 NOT_FOUND in the envelope. */
export function notFound(): RequestHandler {
  return () => {
    throw new AppError("NOT_FOUND", "No such endpoint; the API is described at /api/v1/openapi.json");
  };
}
