import type { FilingRpcCaller, FilingStatus, FilingType } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";

/** A filing of the caller's for one of a company's deadline periods. */
export interface DeadlineFilingRow {
  id: string;
  filingType: FilingType;
  status: FilingStatus;
  /** The filing's period end (a CT600's is its whole accounts period's). */
  periodEnd: string;
  /** The period ends of a CT600's returns (one, or two when split); empty for accounts. */
  partEnds: string[];
}

/**
 * The caller's own filings (the key's: a filing is visible only to the key that created it) of
 * a company whose period ends on one of `periodEnds`, newest first, with their CT600 returns'
 * period ends. One statement; no periods, no query.
 */
export async function readDeadlineFilings(
  db: FilingDb,
  caller: FilingRpcCaller,
  companyNumber: string,
  periodEnds: readonly string[],
): Promise<DeadlineFilingRow[]> {
  if (periodEnds.length === 0) return [];
  const ends = Prisma.join(periodEnds.map((end) => Prisma.sql`${end}::date`));
  return db.$queryRaw<DeadlineFilingRow[]>`
    SELECT f.id, f.filing_type::text AS "filingType", f.status::text AS status,
      to_char(f.period_end, 'YYYY-MM-DD') AS "periodEnd",
      COALESCE((SELECT json_agg(to_char(p.period_end, 'YYYY-MM-DD') ORDER BY p.part_number)
        FROM filing_parts p WHERE p.filing_id = f.id), '[]'::json) AS "partEnds"
    FROM filings f
    WHERE f.key_id = ${caller.key_id} AND f.account_id = ${caller.account_id}
      AND f.company_number = ${companyNumber} AND f.period_end IN (${ends})
    ORDER BY f.created_at DESC, f.id DESC`;
}
