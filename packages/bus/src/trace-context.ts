import { randomBytes } from "node:crypto";
import { Traceparent } from "@dormant/contracts";

/**
 * W3C trace context for messages: a message continues the trace of whatever caused it (same
 * trace-id, a fresh parent-id standing for the publish), or starts a new sampled trace.
 */
export function childTraceparent(parent: string | undefined): string {
  const spanId = nonZeroHex(8);
  if (parent && Traceparent.safeParse(parent).success) {
    const [, traceId, , flags] = parent.split("-");
    return `00-${traceId}-${spanId}-${flags}`;
  }
  return `00-${nonZeroHex(16)}-${spanId}-01`;
}

/** The trace-id part of a traceparent. */
export function traceIdOf(traceparent: string): string | undefined {
  return traceparent.split("-")[1];
}

function nonZeroHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString("hex");
    if (/[^0]/.test(hex)) return hex;
  }
}
