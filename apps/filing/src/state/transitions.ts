import type { FilingError, FilingStatus } from "@dormant/contracts";
import type { Filing, FilingPart, Prisma } from "../generated/prisma/client.ts";
import { enqueueEvent } from "../outbox/enqueue.ts";
import { decideFilingStatus, decidingSubmission, isFinalFiling, type SubmissionStatus } from "./filing-state.ts";

export type Tx = Prisma.TransactionClient;
export type LockedFiling = Filing & { parts: FilingPart[] };

/** Why a transition happened (kept in the status history) and the request it belongs to. */
export interface Cause {
  text: string;
  requestId: string;
}

/** Locks the filing's row until the transaction ends and reads it with its parts; null when unknown. */
export async function lockFiling(tx: Tx, filingId: string): Promise<LockedFiling | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM filings WHERE id = ${filingId} FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.filing.findUniqueOrThrow({ where: { id: filingId }, include: { parts: { orderBy: { partNumber: "asc" } } } });
}

export async function recordHistory(
  tx: Tx,
  entry: { filingId: string; partNumber?: number | null; field: "status" | "tax_status" | "registry_status"; from: string | null; to: string; cause: string },
): Promise<void> {
  await tx.statusHistory.create({
    data: { filingId: entry.filingId, partNumber: entry.partNumber ?? null, field: entry.field, fromStatus: entry.from, toStatus: entry.to, cause: entry.cause },
  });
}

interface SubmissionView {
  status: SubmissionStatus;
  errorCode: string | null;
  errorMessage: string | null;
}

/** A filing's submissions: its CT600 parts, or its one registry submission. */
function submissionsOf(filing: LockedFiling): SubmissionView[] {
  if (filing.filingType === "ct600") return filing.parts.map((p) => ({ status: p.taxStatus, errorCode: p.errorCode, errorMessage: p.errorMessage }));
  return [{ status: filing.registryStatus ?? "pending", errorCode: filing.errorCode, errorMessage: filing.errorMessage }];
}

/**
 * Moves a (locked) filing to `to`: the row, a history entry and, when `to` is final, the one
 * filing event (filing.accepted / rejected / errored) in the outbox, all in the caller's
 * transaction. A final filing's claim is dropped: nobody needs to work on it any more.
 */
export async function moveFiling(tx: Tx, filing: LockedFiling, to: FilingStatus, cause: Cause, error?: FilingError): Promise<void> {
  const final = isFinalFiling(to);
  const now = new Date();
  await tx.filing.update({
    where: { id: filing.id },
    data: {
      status: to,
      updatedAt: now,
      ...(final ? { finalizedAt: now, claimToken: null, claimExpiresAt: null } : {}),
      ...(error ? { errorCode: error.code, errorMessage: error.message } : {}),
    },
  });
  await recordHistory(tx, { filingId: filing.id, field: "status", from: filing.status, to, cause: cause.text });
  if (!final) return;
  const common = {
    filing_id: filing.id,
    account_id: filing.accountId,
    filing_type: filing.filingType,
    company_number: filing.companyNumber,
    occurred_at: now.toISOString(),
  };
  if (to === "accepted") {
    await enqueueEvent(tx, "filing.accepted", { ...common, fee_pence: filing.feePence }, cause.requestId);
  } else {
    const reason = error ?? { code: "INTERNAL_ERROR" as const, message: "The filing could not be completed." };
    await enqueueEvent(tx, to === "rejected" ? "filing.rejected" : "filing.errored", { ...common, error: reason }, cause.requestId);
  }
}

/**
 * Recomputes a (locked) filing's status from its submissions (decideFilingStatus) and moves it
 * when that changes; the error of a rejected or errored filing is its deciding submission's.
 * Returns the status the filing has afterwards.
 */
export async function settleFiling(tx: Tx, filing: LockedFiling, cause: Cause): Promise<FilingStatus> {
  const submissions = submissionsOf(filing);
  const next = decideFilingStatus(filing.status, submissions.map((s) => s.status));
  if (next === filing.status) return next;
  const deciding = decidingSubmission(next, submissions);
  const error = deciding?.errorCode ? ({ code: deciding.errorCode, message: deciding.errorMessage ?? "" } as FilingError) : undefined;
  await moveFiling(tx, filing, next, cause, error);
  return next;
}
