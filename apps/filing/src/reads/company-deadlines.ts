import { calendarDateAt, deriveCompanyDeadlines } from "@dormant/company-data";
import type { CompanyDeadlines, CompanyDeadlinesRequest, DeadlineFiling } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import type { RegistryDataSource } from "../registry-data/registry-data-source.ts";
import { lookUpCompany } from "../submit/company-lookup.ts";
import { type DeadlineFilingRow, readDeadlineFilings } from "./deadline-filings.ts";

export interface CompanyDeadlinesDeps {
  db: FilingDb;
  registry: RegistryDataSource;
  now: () => Date;
}

const listed = (rows: readonly DeadlineFilingRow[]): DeadlineFiling[] => rows.map((row) => ({ filing_id: row.id, status: row.status }));

/**
 * `filing.deadlines`: the company's profile through the registry data source (cached), its
 * deadlines as `deriveCompanyDeadlines` gives them for today in London, and the caller's own
 * filings of those periods: accounts filings by their period end, CT600 filings under each
 * return one of their parts ends on. A company the registry does not know and the registry out
 * of reach are the submits' errors (`lookUpCompany`). Test callers have no filings here.
 */
export async function companyDeadlines(deps: CompanyDeadlinesDeps, request: CompanyDeadlinesRequest): Promise<CompanyDeadlines> {
  const { caller, company_number: companyNumber } = request;
  const { profile } = await lookUpCompany(deps.registry, companyNumber);
  const today = calendarDateAt(deps.now());
  const deadlines = deriveCompanyDeadlines(profile, today);
  const periodEnds = deadlines.accountsPeriods.map((p) => p.period.end);
  const rows = caller.mode === "live" ? await readDeadlineFilings(deps.db, caller, companyNumber, periodEnds) : [];
  return {
    company_number: companyNumber,
    company_name: profile.company_name,
    today,
    accounts_periods: deadlines.accountsPeriods.map((p) => ({
      kind: p.kind,
      period: p.period,
      due_on: p.dueOn,
      overdue: p.overdue,
      filings: listed(rows.filter((row) => row.filingType === "accounts" && row.periodEnd === p.period.end)),
    })),
    ct600_periods: deadlines.ct600Periods.map((p) => ({
      period: p.period,
      accounts_period_end: p.accountsPeriodEnd,
      filing_deadline: p.filingDeadline,
      overdue: p.overdue,
      filings: listed(
        rows.filter((row) => row.filingType === "ct600" && row.periodEnd === p.accountsPeriodEnd && row.partEnds.includes(p.period.end)),
      ),
    })),
  };
}
