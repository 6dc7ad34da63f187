import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { rowCtesOfChange } from "./change-ctes.ts";
import { filingAssignments } from "./column-assignments.ts";
import type { FilingWrite } from "./filing-change.ts";
import type { FilingRecord } from "./filing-record.ts";

/**
 * Writes a change as one statement (see filing-record.ts): the filing's UPDATE at the version
 * the change was computed from, with the rows of the change as CTEs joined to it. Returns the
 * record as written (with its new version), or null when the filing is no longer at
 * `before.version` (changed meanwhile, or removed): nothing was written, and the caller computes
 * the change again from a fresh read. Throws what the database refuses (e.g. the inbox row of a
 * message recorded meanwhile: see `isUniqueViolation`).
 */
export async function writeFiling(db: FilingDb, write: FilingWrite): Promise<FilingRecord | null> {
  const { before, after } = write;
  const sets = filingAssignments(before, after);
  const ctes = rowCtesOfChange(write);
  const rows = await db.$queryRaw<Array<{ version: number }>>`
    WITH f AS (
      UPDATE filings SET version = version + 1${sets.length > 0 ? Prisma.sql`, ${Prisma.join(sets, ", ")}` : Prisma.empty}
      WHERE id = ${before.id} AND version = ${before.version}::int
      RETURNING id, version)${ctes.length > 0 ? Prisma.sql`, ${Prisma.join(ctes, ", ")}` : Prisma.empty}
    SELECT version FROM f`;
  const row = rows[0];
  return row ? { ...after, version: row.version } : null;
}

/** How often a change computed from a read is computed again when the filing moved meanwhile. */
export const MAX_WRITE_ATTEMPTS = 10;

/** A filing that kept changing under a change (more than MAX_WRITE_ATTEMPTS times): retried by the caller's caller. */
export class FilingBusyError extends Error {
  override readonly name = "FilingBusyError";
  constructor(filingId: string) {
    super(`filing ${filingId} kept changing while a change was computed; try again`);
  }
}
