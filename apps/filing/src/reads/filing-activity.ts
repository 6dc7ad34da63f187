import type { FilingDb } from "../db/client.ts";

/** The windows the operator's view counts filings in, in minutes. */
export const ACTIVITY_WINDOWS_MINUTES = [5, 60] as const;

/** What happened to filings lately: each count over the last 5 and the last 60 minutes. */
export interface FilingActivity {
  /** Every submission acknowledged by its authority (submitted_at in the window). */
  submitted: WindowCounts;
  /** Ended accepted, rejected or error (finalized_at in the window). */
  accepted: WindowCounts;
  rejected: WindowCounts;
  errored: WindowCounts;
}
export interface WindowCounts {
  last_5m: number;
  last_60m: number;
}

/** A filing not yet final, the oldest of its type and status (`pending`: not every part acknowledged yet). */
export interface UnfinishedOldest {
  type: "ct600" | "accounts";
  status: "pending" | "submitted";
  /** Seconds since the filing was received. */
  age_seconds: number;
  filing_id: string;
}

export const UNFINISHED_TYPES = ["ct600", "accounts"] as const;
export const UNFINISHED_STATUSES = ["pending", "submitted"] as const;

/**
 * The filings submitted, accepted, rejected and errored in the last 5 and 60 minutes, as of
 * `now`. One statement: range reads of filings_submitted_at_idx and filings_finalized_at_id_idx.
 */
export async function filingActivity(db: FilingDb, now: Date): Promise<FilingActivity> {
  const [short, long] = ACTIVITY_WINDOWS_MINUTES.map((minutes) => new Date(now.getTime() - minutes * 60_000));
  const rows = await db.$queryRaw<Array<{ what: string; last_5m: bigint; last_60m: bigint }>>`
    WITH lately AS (
      SELECT "submitted_at" AS "at", 'submitted' AS "what" FROM "filings"
       WHERE "submitted_at" IS NOT NULL AND "submitted_at" >= ${long}::timestamptz AND "submitted_at" <= ${now}::timestamptz
      UNION ALL
      SELECT "finalized_at", "status"::text FROM "filings"
       WHERE "finalized_at" IS NOT NULL AND "finalized_at" >= ${long}::timestamptz AND "finalized_at" <= ${now}::timestamptz
         AND "status" IN ('accepted', 'rejected', 'error'))
    SELECT "what", count(*) FILTER (WHERE "at" >= ${short}::timestamptz) AS "last_5m", count(*) AS "last_60m"
      FROM lately GROUP BY "what"`;
  const counts = (what: string): WindowCounts => {
    const row = rows.find((candidate) => candidate.what === what);
    return { last_5m: Number(row?.last_5m ?? 0), last_60m: Number(row?.last_60m ?? 0) };
  };
  return { submitted: counts("submitted"), accepted: counts("accepted"), rejected: counts("rejected"), errored: counts("error") };
}

/**
 * The oldest filing not yet final of each type and status that has one, as of `now` (for each, a
 * walk of filings_status_created_at_idx from its oldest entry). Accounts can wait days at the registry's
 * examination, a CT600 minutes: the two are told apart.
 */
export async function oldestUnfinished(db: FilingDb, now: Date): Promise<UnfinishedOldest[]> {
  const rows = await db.$queryRaw<
    Array<{ type: UnfinishedOldest["type"]; status: UnfinishedOldest["status"]; id: string; created_at: Date }>
  >`
    SELECT t."type", s."status", f."id", f."created_at"
      FROM unnest(ARRAY['ct600', 'accounts']) AS t("type")
     CROSS JOIN unnest(ARRAY['pending', 'submitted']) AS s("status")
     CROSS JOIN LATERAL (
       SELECT "id", "created_at" FROM "filings"
        WHERE "status" = s."status"::"filing_status" AND "filing_type" = t."type"::"filing_type"
        ORDER BY "created_at", "id" LIMIT 1) AS f
     ORDER BY t."type", s."status"`;
  return rows.map((row) => ({
    type: row.type,
    status: row.status,
    age_seconds: Math.max(0, Math.round((now.getTime() - row.created_at.getTime()) / 1000)),
    filing_id: row.id,
  }));
}
