import type { Request } from "express";
import type { SimConfig } from "../config.ts";

/** The URL a client reached this simulator at (configured, else from the request's Host). */
export function simBaseUrl(req: Request, config: SimConfig): string {
  return config.publicUrl ?? `${req.protocol}://${req.get("host") ?? `${config.host}:${config.port}`}`;
}
