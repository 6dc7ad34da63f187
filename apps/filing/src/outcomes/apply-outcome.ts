import type { FilingDb } from "../db/client.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { FILING_READ_COLUMNS } from "../state/filing-columns.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { filingsFromRows, type FilingRow } from "../state/filing-rows.ts";
import { FilingBusyError, MAX_WRITE_ATTEMPTS, writeFiling } from "../state/write-filing.ts";
import { beginChange, settleFiling, type Cause, type Change } from "../state/transitions.ts";

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
 * What a message changes: applied to the change of the filing it is about (in memory); false
 * when the state machine refuses it (nothing may be changed then).
 */
export type OutcomeChange = (change: Change, cause: Cause) => boolean;

export interface ApplyHooks {
  /** Called when the change wrote a filing event to the outbox (the relay may publish it now). */
  onEventWritten?: () => void;
}

/** The filing the message is about (with its parts) and whether the message was applied before: one statement. */
async function readForMessage(db: FilingDb, message: InboundMessage): Promise<{ seen: boolean; filing: FilingRecord | null }> {
  const rows = await db.$queryRaw<Array<FilingRow & { seen: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM inbox WHERE message_id = ${message.messageId}) AS seen, ${FILING_READ_COLUMNS}
    FROM (SELECT 1) AS one
      LEFT JOIN filings f ON f.id = ${message.filingId}
      LEFT JOIN filing_parts p ON p.filing_id = f.id
    ORDER BY p.part_number`;
  const seen = rows[0]?.seen ?? false;
  return { seen, filing: rows[0]?.id ? filingsFromRows(rows)[0]! : null };
}

/** Records a message that changes nothing; false when it was recorded already (a duplicate). */
async function recordInboxOnly(db: FilingDb, message: InboundMessage): Promise<boolean> {
  const inserted = await db.$executeRaw`
    INSERT INTO inbox (message_id, type, filing_id) VALUES (${message.messageId}, ${message.type}, ${message.filingId})
    ON CONFLICT (message_id) DO NOTHING`;
  return inserted > 0;
}

/**
 * Applies one outcome message exactly once in effect, in two statements and no transaction:
 * 1. the filing with its parts, and whether the message id is in the inbox already (a
 *    redelivery: "duplicate", nothing changes);
 * 2. the change (`change` returns whether the state machine allowed one), the filing settled
 *    from its submissions (which may finish it and write its event to the outbox), and the
 *    message's inbox row, written as one statement that applies only if the filing is still at
 *    the version read (src/state/write-filing.ts). Two outcomes of one filing's parts arriving
 *    together: one writes, the other finds the filing moved and computes its change again from
 *    a fresh read, so both are applied, one after the other. Two deliveries of the same message:
 *    the second finds the inbox row (on its read, or as a unique-key failure of its write, which
 *    then writes nothing) and is a duplicate.
 * A message the state machine refuses, or for an unknown filing, only records its inbox row.
 * The bus acks the message only after this returns.
 */
export async function applyOutcome(
  db: FilingDb,
  message: InboundMessage,
  change: OutcomeChange,
  hooks: ApplyHooks = {},
): Promise<OutcomeEffect> {
  const cause = { text: `${message.type} message ${message.messageId}`, requestId: message.requestId };
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    const { seen, filing } = await readForMessage(db, message);
    if (seen) return "duplicate";
    if (!filing) return (await recordInboxOnly(db, message)) ? "unknown_filing" : "duplicate";
    const draft = beginChange(filing);
    if (!change(draft, cause)) return (await recordInboxOnly(db, message)) ? "ignored" : "duplicate";
    draft.after.updatedAt = draft.now;
    settleFiling(draft, cause);
    try {
      if (await writeFiling(db, { ...draft, inbox: { messageId: message.messageId, type: message.type } })) {
        if (draft.events.length > 0) hooks.onEventWritten?.();
        return "applied";
      }
    } catch (error) {
      // Another delivery of this message was applied meanwhile: the next read finds its inbox row.
      if (!isUniqueViolation(error, "inbox_pkey")) throw error;
    }
  }
  throw new FilingBusyError(message.filingId);
}
