import type { FilingDb } from "../db/client.ts";
import { lockFiling, settleFiling, type Cause, type LockedFiling, type Tx } from "../state/transitions.ts";

/** What applying a message did. */
export type OutcomeEffect =
  /** The message changed the filing (and maybe finished it). */
  | "applied"
  /** Already applied once (same message id): nothing done. */
  | "duplicate"
  /** The state machine refused it (late, out of order, or not about this filing's submission). */
  | "ignored"
  /** No such filing (e.g. removed after its submit failed): nothing to apply it to. */
  | "unknown_filing";

export interface InboundMessage {
  messageId: string;
  type: string;
  filingId: string;
  requestId: string;
}

/**
 * Applies one outcome message exactly once in effect, in one transaction: the inbox row (unique
 * message id: a redelivery finds it and changes nothing), the filing locked (two parts' outcomes
 * for one filing are applied one after the other), the change (`change` returns whether the
 * state machine allowed one), and the filing settled from its submissions, which may finish it
 * and write its event to the outbox. The message is acked only after this commits.
 */
export async function applyOutcome(
  db: FilingDb,
  message: InboundMessage,
  change: (tx: Tx, filing: LockedFiling, cause: Cause) => Promise<boolean>,
): Promise<OutcomeEffect> {
  return db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO inbox (message_id, type, filing_id) VALUES (${message.messageId}, ${message.type}, ${message.filingId})
      ON CONFLICT (message_id) DO NOTHING`;
    if (inserted === 0) return "duplicate";
    const filing = await lockFiling(tx, message.filingId);
    if (!filing) return "unknown_filing";
    const cause = { text: `${message.type} message ${message.messageId}`, requestId: message.requestId };
    if (!(await change(tx, filing, cause))) return "ignored";
    await tx.filing.update({ where: { id: filing.id }, data: { updatedAt: new Date() } });
    const changed = await lockFiling(tx, message.filingId);
    await settleFiling(tx, changed!, cause);
    return "applied";
  });
}
