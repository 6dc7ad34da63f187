import { Prisma } from "../generated/prisma/client.ts";
import { partAssignments } from "./column-assignments.ts";
import type { FilingWrite, OutboxEvent } from "./filing-change.ts";

const iso = (date: Date) => date.toISOString();

/**
 * The data-modifying CTEs that write the rows going with a change (its parts' updates, history,
 * documents, outbox events, inbox row), each joined to the filing's UPDATE (`f`), so that they
 * happen if and only if it did.
 */
export function rowCtesOfChange(write: FilingWrite): Prisma.Sql[] {
  const ctes: Prisma.Sql[] = [];
  for (const part of write.after.parts) {
    const was = write.before.parts.find((p) => p.partNumber === part.partNumber);
    if (!was) throw new Error(`part ${part.partNumber} of ${write.after.id} does not exist`);
    const sets = partAssignments(was, part);
    if (sets.length === 0) continue;
    ctes.push(Prisma.sql`${Prisma.raw(`part${part.partNumber}`)} AS (
      UPDATE filing_parts SET ${Prisma.join(sets, ", ")} FROM f WHERE filing_parts.filing_id = f.id AND filing_parts.part_number = ${part.partNumber}::int)`);
  }
  if (write.history.length > 0) {
    const rows = write.history.map(
      (h, i) => Prisma.sql`(${i}::int, ${h.partNumber}::int, ${h.field}::text, ${h.from}::text, ${h.to}::text, ${h.cause}::text)`,
    );
    ctes.push(Prisma.sql`history AS (
      INSERT INTO status_history (filing_id, part_number, field, from_status, to_status, cause)
      SELECT f.id, v.part_number, v.field, v.from_status, v.to_status, v.cause
      FROM f CROSS JOIN (VALUES ${Prisma.join(rows)}) AS v(ord, part_number, field, from_status, to_status, cause) ORDER BY v.ord)`);
  }
  if (write.documents && write.documents.length > 0) {
    const rows = write.documents.map(
      (d) =>
        Prisma.sql`(${d.type}::document_type, ${d.partNumber}::int, ${d.mediaType}::text, ${d.fileName}::text, ${d.content}::bytea, ${d.content.length}::int, ${iso(d.generatedAt)}::timestamptz)`,
    );
    ctes.push(Prisma.sql`docs AS (
      INSERT INTO documents (filing_id, type, part_number, media_type, file_name, content, size_bytes, generated_at)
      SELECT f.id, v.* FROM f CROSS JOIN (VALUES ${Prisma.join(rows)}) AS v(type, part_number, media_type, file_name, content, size_bytes, generated_at)
      ON CONFLICT DO NOTHING)`);
  }
  if (write.events.length > 0) {
    ctes.push(Prisma.sql`events AS (
      INSERT INTO outbox (${OUTBOX_COLUMNS})
      SELECT v.* FROM f CROSS JOIN (VALUES ${Prisma.join(write.events.map(outboxValues))}) AS v(${OUTBOX_COLUMNS}))`);
  }
  if (write.inbox) {
    // A plain insert: if a concurrent delivery of the same message recorded it first, the unique
    // key fails the whole statement, so the change is not applied twice.
    ctes.push(Prisma.sql`inbox_row AS (
      INSERT INTO inbox (message_id, type, filing_id) SELECT ${write.inbox.messageId}::text, ${write.inbox.type}::text, f.id FROM f)`);
  }
  return ctes;
}

/** An outbox row's values: (message_id, type, payload, request_id, occurred_at, traceparent, tracestate). */
export function outboxValues(event: OutboxEvent): Prisma.Sql {
  return Prisma.sql`(${event.messageId}::uuid, ${event.type}::text, ${JSON.stringify(event.payload)}::jsonb, ${event.requestId}::text, ${iso(event.occurredAt)}::timestamptz, ${event.traceparent ?? null}::text, ${event.tracestate ?? null}::text)`;
}

/** The columns of outboxValues, for `INSERT INTO outbox (...)` and `AS v(...)`. */
export const OUTBOX_COLUMNS = Prisma.raw("message_id, type, payload, request_id, occurred_at, traceparent, tracestate");
