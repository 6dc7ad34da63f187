import type { FilingRecord } from "./filing-record.ts";

/** A row of `status_history` written with a change (occurred_at is the statement's time). */
export interface HistoryEntry {
  partNumber: number | null;
  field: "status" | "tax_status" | "registry_status" | "registry_status_code";
  from: string | null;
  to: string;
  cause: string;
}

/** An outbox row written with a change (its payload already checked against the message schema). */
export interface OutboxEvent {
  messageId: string;
  type: string;
  payload: unknown;
  requestId: string;
  occurredAt: Date;
  /** The trace of what wrote the event (W3C headers), which its message continues; none outside a trace. */
  traceparent?: string;
  tracestate?: string;
}

/** A document written with a change; one already stored for the same (filing, type, part) is kept. */
export interface DocumentRow {
  type: "ct600_pdf" | "ct600_xml" | "ixbrl_accounts" | "accounts_pdf";
  partNumber: number | null;
  mediaType: string;
  fileName: string;
  content: Uint8Array;
  generatedAt: Date;
}

/** Everything one change writes: the filing as it is afterwards, and the rows that go with it. */
export interface FilingWrite {
  /** The record the change was computed from (its version is checked, its values diffed). */
  before: FilingRecord;
  /** The record as it is after the change (same id and parts). */
  after: FilingRecord;
  history: readonly HistoryEntry[];
  events: readonly OutboxEvent[];
  documents?: readonly DocumentRow[];
  /** The message the change applies (filing.outcomes): its inbox row, in the same statement. */
  inbox?: { messageId: string; type: string };
}
