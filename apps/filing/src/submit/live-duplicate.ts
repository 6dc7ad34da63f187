import { AppError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";

/**
 * No duplicate filings (issue 13 item 3): the partial unique index that allows one live
 * (pending, submitted or accepted) filing per account, filing type, company and period end
 * (migration 20261127140000_client_reference_live_filing_unique; a late acceptance stays out of it,
 * 20261127170000_accepted_late_leaves_live_index). The database decides, so the rule holds under
 * concurrency and across replicas.
 */
export const LIVE_FILING_INDEX = "filings_live_filing_key";

/** What the index is over: the account (not the key: the rule is per customer), the type, the company, the submitted period end. */
export interface LiveFilingKey {
  accountId: string;
  filingType: "ct600" | "accounts";
  companyNumber: string;
  periodEnd: string;
}

/** The live filing that holds the index entry, and the API key and Idempotency-Key that created it. */
export interface LiveFiling {
  id: string;
  keyId: string;
  idempotencyKey: string | null;
}

/**
 * The live filing the index refused a new one for, read after the refusal: the refused INSERT
 * waited for the row it conflicts with to commit, so a new statement sees it, unless it ended
 * (rejected, error) or was removed meanwhile: null, and the caller may try again.
 */
export async function findLiveFiling(db: FilingDb, key: LiveFilingKey): Promise<LiveFiling | null> {
  const rows = await db.$queryRaw<LiveFiling[]>`
    SELECT id, key_id AS "keyId", idempotency_key AS "idempotencyKey" FROM filings
    WHERE account_id = ${key.accountId} AND filing_type = ${key.filingType}::filing_type AND company_number = ${key.companyNumber}
      AND period_end = ${key.periodEnd}::date AND status IN ('pending', 'submitted', 'accepted') AND NOT accepted_late
    LIMIT 1`;
  return rows[0] ?? null;
}

/** 409 FILING_EXISTS with the existing filing's id: the same account's, so it may be shown. */
export function filingExistsError(filingId: string): AppError {
  return new AppError(
    "FILING_EXISTS",
    "This account already has a pending, submitted or accepted filing of this type for this company and period end",
    { details: [{ field: "filing_id", message: "the existing filing", filing_id: filingId }] },
  );
}
