import type { FilingError, FilingStatus } from "@dormant/contracts";
import type { Prisma } from "../generated/prisma/client.ts";
import { outboxEvent } from "../outbox/enqueue.ts";
import { filingView } from "../reads/filing-view.ts";
import { clientReferenceOf } from "./client-reference.ts";
import { decideFilingStatus, decidingSubmission, isFinalFiling, type SubmissionStatus } from "./filing-state.ts";
import type { DocumentRow, FilingWrite, HistoryEntry, OutboxEvent } from "./filing-change.ts";
import type { FilingRecord, PartRecord } from "./filing-record.ts";

/** A Prisma transaction client (for code that still writes in an interactive transaction). */
export type Tx = Prisma.TransactionClient;

/** Why a transition happened (kept in the status history) and the request it belongs to. */
export interface Cause {
  text: string;
  requestId: string;
}

/**
 * One change of a filing, computed in memory: `filing` is the record as it will be (a copy of
 * `before`, changed by the functions below), with the history rows, the event and the documents
 * that go with it. Written as one statement by `writeFiling` (src/state/write-filing.ts).
 */
export interface Change extends FilingWrite {
  readonly before: FilingRecord;
  readonly after: FilingRecord;
  readonly history: HistoryEntry[];
  readonly events: OutboxEvent[];
  readonly documents: DocumentRow[];
  /** The time of the change (updated_at, finalized_at, the event's occurred_at). */
  readonly now: Date;
}

/** Starts a change of `filing` (which is not modified). */
export function beginChange(filing: FilingRecord, now: Date = new Date()): Change {
  return {
    before: filing,
    after: { ...filing, parts: filing.parts.map((part) => ({ ...part })) },
    history: [],
    events: [],
    documents: [],
    now,
  };
}

export function recordHistory(
  change: Change,
  entry: { partNumber?: number | null; field: HistoryEntry["field"]; from: string | null; to: string; cause: string },
): void {
  change.history.push({ partNumber: entry.partNumber ?? null, field: entry.field, from: entry.from, to: entry.to, cause: entry.cause });
}

/** The part `partNumber` of the changed filing (to change it), if it has one. */
export function partOf(change: Change, partNumber: number): PartRecord | undefined {
  return change.after.parts.find((part) => part.partNumber === partNumber);
}

interface SubmissionView {
  status: SubmissionStatus;
  errorCode: string | null;
  errorMessage: string | null;
}

/** A filing's submissions: its CT600 parts, or its one registry submission. */
function submissionsOf(filing: FilingRecord): SubmissionView[] {
  if (filing.filingType === "ct600")
    return filing.parts.map((p) => ({ status: p.taxStatus, errorCode: p.errorCode, errorMessage: p.errorMessage }));
  return [{ status: filing.registryStatus ?? "pending", errorCode: filing.errorCode, errorMessage: filing.errorMessage }];
}

/** Whether every submission of the filing has been acknowledged by its authority (or overtaken by its outcome). */
export function everySubmissionAcknowledged(filing: FilingRecord): boolean {
  if (filing.filingType === "ct600") return filing.parts.every((part) => part.taxCorrelationId !== null);
  return filing.registryStatus !== null && filing.registryStatus !== "pending";
}

/**
 * Moves the filing to `to`: the row, a history entry and, when `to` is final, the one filing
 * event (filing.accepted / rejected / errored) for the outbox. A final filing's claim is dropped:
 * nobody needs to work on it any more.
 */
export function moveFiling(change: Change, to: FilingStatus, cause: Cause, error?: FilingError): void {
  const filing = change.after;
  const final = isFinalFiling(to);
  // A late acceptance: the filing had ended error (filing.errored went out, the hold was released).
  const corrects = filing.status === "error" && to === "accepted" ? ("error" as const) : undefined;
  recordHistory(change, { field: "status", from: filing.status, to, cause: cause.text });
  filing.status = to;
  filing.updatedAt = change.now;
  if (final) {
    filing.finalizedAt = change.now;
    filing.claimToken = null;
  }
  if (error) {
    filing.errorCode = error.code;
    filing.errorMessage = error.message;
  }
  if (!final) return;
  if (to === "accepted" && corrects) {
    filing.errorCode = null;
    filing.errorMessage = null;
    // Out of the live-filing index: a refiling of the same period may hold its place.
    filing.acceptedLate = true;
  }
  const common = {
    filing_id: filing.id,
    account_id: filing.accountId,
    filing_type: filing.filingType,
    company_number: filing.companyNumber,
    ...clientReferenceOf(filing),
    occurred_at: change.now.toISOString(),
    // The filing as GET /filings/{filing_id} shows it from now on (the webhooks' data).
    filing: filingView(filing),
  };
  if (to === "accepted") {
    change.events.push(
      outboxEvent("filing.accepted", { ...common, fee_pence: filing.feePence, ...(corrects ? { corrects } : {}) }, cause.requestId),
    );
  } else {
    const reason = error ?? { code: "INTERNAL_ERROR" as const, message: "The filing could not be completed." };
    change.events.push(
      outboxEvent(to === "rejected" ? "filing.rejected" : "filing.errored", { ...common, error: reason }, cause.requestId),
    );
  }
}

/**
 * Recomputes the filing's status from its submissions (decideFilingStatus) and moves it when
 * that changes; the error of a rejected or errored filing is its deciding submission's. Returns
 * the status the filing has afterwards.
 */
export function settleFiling(change: Change, cause: Cause): FilingStatus {
  const filing = change.after;
  const submissions = submissionsOf(filing);
  const next = decideFilingStatus(
    filing.status,
    submissions.map((s) => s.status),
  );
  if (next === filing.status) return next;
  const deciding = decidingSubmission(next, submissions);
  const error = deciding?.errorCode ? ({ code: deciding.errorCode, message: deciding.errorMessage ?? "" } as FilingError) : undefined;
  moveFiling(change, next, cause, error);
  return next;
}
