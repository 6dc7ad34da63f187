import type { DatePeriod } from "@dormant/company-data";
import type { SubmitTaxPartRequest } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { TaxPartDraft } from "./new-filing.ts";

/**
 * The dormant accounts a CT600 attaches (issue 11, item 8; packages/govtalk README, "Accounts:
 * attached, or a reason"): the iXBRL the registry received, i.e. the ixbrl_accounts document of an
 * accounts filing of the same account, company and period end.
 */
export interface Ct600Accounts {
  /** The accounts filing whose document it is (kept in each part's stored request). */
  filingId: string;
  /** The accounts' period. */
  period: DatePeriod;
  fileName: string;
  /** The ixbrl_accounts document, byte for byte. */
  content: Uint8Array;
}

/** The columns both queries below select. */
interface AccountsRow {
  accounts_filing_id: string;
  accounts_period_start: string;
  accounts_period_end: string;
  accounts_file_name: string;
  accounts_content: Uint8Array;
}

const COLUMNS = Prisma.sql`f.id AS accounts_filing_id, to_char(f.period_start, 'YYYY-MM-DD') AS accounts_period_start,
  to_char(f.period_end, 'YYYY-MM-DD') AS accounts_period_end, d.file_name AS accounts_file_name, d.content AS accounts_content`;

/**
 * The SELECT that finds the accounts a new CT600 attaches: an accounts filing of the SAME account
 * (never another account's: the iXBRL is that customer's document), the same company and the same
 * period end, not rejected or ended in error, with its ixbrl_accounts document; accepted ones first,
 * then submitted, then pending, the latest first. At most one row, with the columns of AccountsRow.
 * It runs inside the statement that writes the pending filing (pending-filing.ts), so attaching
 * costs no round trip; the partial index `filings_accounts_for_ct600_idx` serves it.
 */
export function accountsForCt600Query(accountId: string, companyNumber: string, periodEnd: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${COLUMNS}
    FROM filings f JOIN documents d ON d.filing_id = f.id AND d.type = 'ixbrl_accounts'
    WHERE f.account_id = ${accountId} AND f.filing_type = 'accounts' AND f.company_number = ${companyNumber}
      AND f.period_end = ${periodEnd}::date AND f.status IN ('accepted', 'submitted', 'pending')
    ORDER BY CASE f.status WHEN 'accepted' THEN 0 WHEN 'submitted' THEN 1 ELSE 2 END, f.created_at DESC, f.id
    LIMIT 1`;
}

/** The same columns, no row: what a filing other than a CT600 looks up. */
export const NO_ACCOUNTS_QUERY = Prisma.sql`
  SELECT NULL::text AS accounts_filing_id, NULL::text AS accounts_period_start, NULL::text AS accounts_period_end,
    NULL::text AS accounts_file_name, NULL::bytea AS accounts_content
  WHERE false`;

/** A row of either query, or its columns null when it found none. */
export type MaybeAccountsRow = { [K in keyof AccountsRow]: AccountsRow[K] | null };

/** The accounts from a row of either query (columns null: none). */
export function ct600AccountsFromRow(row: MaybeAccountsRow): Ct600Accounts | null {
  if (!row.accounts_filing_id || !row.accounts_content) return null;
  return {
    filingId: row.accounts_filing_id,
    period: { start: row.accounts_period_start!, end: row.accounts_period_end! },
    fileName: row.accounts_file_name!,
    content: row.accounts_content,
  };
}

/**
 * The accounts a stored part request refers to, read again to resume a filing created by an
 * earlier request (one statement). null when that accounts filing is gone (a pending accounts
 * filing whose submit failed before reaching the registry is removed): the part is then sent with
 * the dormant reason instead.
 */
export async function readCt600Accounts(db: FilingDb, accountsFilingId: string): Promise<Ct600Accounts | null> {
  const rows = await db.$queryRaw<AccountsRow[]>`
    SELECT ${COLUMNS}
    FROM filings f JOIN documents d ON d.filing_id = f.id AND d.type = 'ixbrl_accounts'
    WHERE f.id = ${accountsFilingId}`;
  return rows[0] ? ct600AccountsFromRow(rows[0]) : null;
}

/**
 * The `accounts` of a tax.submit_part request: the iXBRL in base64 and what it covers. The
 * accounts of exactly this return's period are `this-period` (box 80); each part of a split period
 * (the accounts cover the whole period of account), or a return whose period differs from the
 * accounts' (e.g. period.start overridden), gets `different-period` (box 85).
 */
export function attachedAccounts(
  accounts: Ct600Accounts,
  part: Pick<TaxPartDraft, "parts_total" | "period">,
): NonNullable<SubmitTaxPartRequest["accounts"]> {
  const samePeriod = part.parts_total === 1 && part.period.start === accounts.period.start && part.period.end === accounts.period.end;
  return {
    ixbrl_base64: Buffer.from(accounts.content).toString("base64"),
    covers: samePeriod ? "this-period" : "different-period",
    filename: accounts.fileName,
  };
}

/** The accounts a new CT600 of this account, company and period end would attach now (the validate-only path: a read, nothing written). */
export async function findCt600Accounts(
  db: FilingDb,
  accountId: string,
  companyNumber: string,
  periodEnd: string,
): Promise<Ct600Accounts | null> {
  const rows = await db.$queryRaw<AccountsRow[]>(accountsForCt600Query(accountId, companyNumber, periodEnd));
  return rows[0] ? ct600AccountsFromRow(rows[0]) : null;
}
