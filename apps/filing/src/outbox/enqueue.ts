import { randomUUID } from "node:crypto";
import { activeTraceHeaders, type PayloadInput } from "@dormant/bus";
import type { FILING_SERVICE_MESSAGES, FilingEventType } from "../bus-catalog.ts";
import { FILING_SERVICE_MESSAGES as CATALOG } from "../bus-catalog.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { OutboxEvent } from "../state/filing-change.ts";

/**
 * An event for the outbox, under the message id it keeps for ever. The payload is checked
 * against the message schema here, so a bad event fails the change that would write it instead
 * of sitting in the outbox. The row is written with the state change it reports
 * (src/state/write-filing.ts `writeFiling`): it is published (by the relay) if and only if that
 * change commits. It keeps the trace context of what wrote it (the span active here), so that the
 * message the relay publishes later continues that trace.
 */
export function outboxEvent<T extends FilingEventType>(
  type: T,
  payload: PayloadInput<typeof FILING_SERVICE_MESSAGES, T>,
  requestId: string,
): OutboxEvent {
  const checked = CATALOG[type].schema.parse(payload);
  const trace = activeTraceHeaders();
  return { messageId: randomUUID(), type, payload: checked, requestId, occurredAt: new Date(payload.occurred_at), ...trace };
}

/** Writes an event into the outbox inside the caller's (interactive) transaction; returns its message id. */
export async function enqueueEvent<T extends FilingEventType>(
  tx: Prisma.TransactionClient,
  type: T,
  payload: PayloadInput<typeof FILING_SERVICE_MESSAGES, T>,
  requestId: string,
): Promise<string> {
  const event = outboxEvent(type, payload, requestId);
  await tx.outboxMessage.create({
    data: {
      messageId: event.messageId,
      type,
      payload: event.payload as Prisma.InputJsonValue,
      requestId,
      occurredAt: event.occurredAt,
      traceparent: event.traceparent ?? null,
      tracestate: event.tracestate ?? null,
    },
  });
  return event.messageId;
}
