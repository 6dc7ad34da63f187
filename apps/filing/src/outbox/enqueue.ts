import { randomUUID } from "node:crypto";
import type { PayloadInput } from "@dormant/bus";
import type { FILING_SERVICE_MESSAGES, FilingEventType } from "../bus-catalog.ts";
import { FILING_SERVICE_MESSAGES as CATALOG } from "../bus-catalog.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/**
 * Writes an event into the outbox inside the caller's transaction: it is published (by the
 * relay) if and only if the state change it reports commits. The payload is checked against the
 * message schema here, so a bad event fails the transaction instead of sitting in the outbox.
 */
export async function enqueueEvent<T extends FilingEventType>(
  tx: Prisma.TransactionClient,
  type: T,
  payload: PayloadInput<typeof FILING_SERVICE_MESSAGES, T>,
  requestId: string,
): Promise<string> {
  const checked = CATALOG[type].schema.parse(payload);
  const messageId = randomUUID();
  await tx.outboxMessage.create({
    data: { messageId, type, payload: checked as Prisma.InputJsonValue, requestId, occurredAt: new Date(payload.occurred_at) },
  });
  return messageId;
}
