import type { FilingError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { outboxEvent } from "../outbox/enqueue.ts";
import { OUTBOX_COLUMNS, outboxValues } from "../state/change-ctes.ts";
import { clientReferenceOf } from "../state/client-reference.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { readFiling } from "../state/filing-rows.ts";
import { MAX_WRITE_ATTEMPTS } from "../state/write-filing.ts";

export interface AbandonReason {
  error: FilingError;
  requestId: string;
  /**
   * Publish filing.errored so that billing releases a fee hold the failed call may have left
   * (false when billing certainly holds nothing, e.g. it answered INSUFFICIENT_BALANCE).
   */
  announce: boolean;
}

/** Whether the filing may be removed: still pending, and no submission reached an authority. */
function removable(filing: FilingRecord): boolean {
  if (filing.status !== "pending") return false;
  if (filing.parts.some((p) => p.taxStatus !== "pending" || p.taxCorrelationId !== null)) return false;
  return filing.registryStatus === null || filing.registryStatus === "pending";
}

/**
 * Removes a pending filing none of whose submissions reached an authority, so that the failed
 * submit leaves nothing behind and a retry with the same Idempotency-Key starts afresh. Refuses
 * (false) when the filing is past pending or a submission was acknowledged: that filing exists
 * at an authority and must stay. The delete (its parts, history and documents go with it) and
 * the filing.errored event are one statement, applied only if the filing is still at the version
 * of `filing` (the record the submit holds); otherwise it is read again and checked again.
 */
export async function abandonFiling(db: FilingDb, filing: FilingRecord, reason: AbandonReason): Promise<boolean> {
  let current: FilingRecord | null = filing;
  for (let attempt = 0; current && attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    if (!removable(current)) return false;
    const event = reason.announce
      ? outboxEvent(
          "filing.errored",
          {
            filing_id: current.id,
            account_id: current.accountId,
            filing_type: current.filingType,
            company_number: current.companyNumber,
            ...clientReferenceOf(current),
            occurred_at: new Date().toISOString(),
            error: reason.error,
          },
          reason.requestId,
        )
      : undefined;
    const announce = event
      ? Prisma.sql`, announced AS (
          INSERT INTO outbox (${OUTBOX_COLUMNS})
          SELECT v.* FROM removed CROSS JOIN (VALUES ${outboxValues(event)}) AS v(${OUTBOX_COLUMNS}))`
      : Prisma.empty;
    const rows = await db.$queryRaw<Array<{ id: string }>>`
      WITH removed AS (DELETE FROM filings WHERE id = ${current.id} AND version = ${current.version}::int RETURNING id)${announce}
      SELECT id FROM removed`;
    if (rows.length > 0) return true;
    current = await readFiling(db, current.id);
  }
  return false;
}
