import type { SimContext } from "./context.ts";
import { maskedBody } from "./state/masked-body.ts";
import type { ReceivedEntry, Target } from "./state/received-log.ts";

/**
 * Notes what an authority received and answered: in the received log (with the request body,
 * secrets masked, when `body` is given), and in the service log (submissions at info, polls and
 * lookups at debug). Neither ever holds a credential.
 */
export function recordExchange(
  context: SimContext,
  target: Target,
  received: Omit<ReceivedEntry, "seq" | "at" | "target">,
  body?: string,
): void {
  const masked = body === undefined || body === "" ? undefined : maskedBody(target, body);
  const entry = context.received.record({ target, ...received }, masked);
  const level = entry.kind === "submit" ? "info" : "debug";
  // Polls and lookups are most of the traffic: build their log line only when debug is on.
  if (!context.logger?.isLevelEnabled(level)) return;
  context.logger[level]({ ...entry, seq: undefined, at: undefined }, `${target} ${entry.kind}: ${entry.answer}`);
}
