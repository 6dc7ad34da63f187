import { z } from "zod";
import { DateTime } from "./primitives.ts";

/** The API version (spec section 9): in the path prefix and in the health answer. */
export const API_VERSION = "1.0";
export const API_PREFIX = "/api/v1";

export const HealthResponse = z
  .object({
    status: z.literal("ok"),
    version: z.literal(API_VERSION),
    timestamp: DateTime,
  })
  .meta({ id: "Health", description: "Not wrapped in the envelope; needs no API key." });
export type HealthResponse = z.infer<typeof HealthResponse>;
