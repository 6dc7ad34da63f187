import type { FilingKind } from "./api-client.ts";

/** What a filing ends as: its status and, for rejected / error, the filing error code. */
export interface ExpectedOutcome {
  status: "accepted" | "rejected" | "error";
  code?: string;
}

export interface TableCompany {
  number: string;
  jurisdiction: "England/Wales" | "Scotland" | "Northern Ireland";
  /** A CT600 period end whose derived period is at most 12 months (one submission). */
  ct600PeriodEnd: string;
  accountsPeriodEnd: string;
  ct600: ExpectedOutcome;
  accounts: ExpectedOutcome;
}

/**
 * The spec's company table (section 4, Sandbox) as the live chain answers it through the
 * simulator. Error codes: the tax submitter's and registry submitter's outcome mappings
 * (their READMEs). Period ends: the next period after the simulator's registry records
 * (apps/authority-sim/src/registry-data/table-companies.ts), all before today; first-year
 * companies (00000005, NI000002) file a CT600 for exactly their first 12 months.
 * 00000002's accounts are rejected by the registry with its own reason (reject code 211,
 * "company details do not match"), which the registry submitter reports as REGISTRY_REJECTED.
 */
export const TABLE_COMPANIES: readonly TableCompany[] = [
  {
    number: "00000001",
    jurisdiction: "England/Wales",
    ct600PeriodEnd: "2026-03-31",
    accountsPeriodEnd: "2026-03-31",
    ct600: { status: "accepted" },
    accounts: { status: "accepted" },
  },
  {
    number: "00000002",
    jurisdiction: "England/Wales",
    ct600PeriodEnd: "2026-09-30",
    accountsPeriodEnd: "2026-09-30",
    ct600: { status: "rejected", code: "TAX_UTR_MISMATCH" },
    accounts: { status: "rejected", code: "REGISTRY_REJECTED" },
  },
  {
    number: "00000003",
    jurisdiction: "England/Wales",
    ct600PeriodEnd: "2026-01-31",
    accountsPeriodEnd: "2026-01-31",
    ct600: { status: "rejected", code: "PERIOD_ALREADY_FILED" },
    accounts: { status: "rejected", code: "PERIOD_ALREADY_FILED" },
  },
  {
    number: "00000004",
    jurisdiction: "England/Wales",
    ct600PeriodEnd: "2026-06-30",
    accountsPeriodEnd: "2026-06-30",
    ct600: { status: "error", code: "GATEWAY_TIMEOUT" },
    accounts: { status: "error", code: "GATEWAY_TIMEOUT" },
  },
  {
    number: "00000005",
    jurisdiction: "England/Wales",
    ct600PeriodEnd: "2026-05-11",
    accountsPeriodEnd: "2026-05-31",
    ct600: { status: "accepted" },
    accounts: { status: "accepted" },
  },
  {
    number: "SC000001",
    jurisdiction: "Scotland",
    ct600PeriodEnd: "2026-10-31",
    accountsPeriodEnd: "2026-10-31",
    ct600: { status: "accepted" },
    accounts: { status: "accepted" },
  },
  {
    number: "SC000002",
    jurisdiction: "Scotland",
    ct600PeriodEnd: "2024-02-29",
    accountsPeriodEnd: "2024-02-29",
    ct600: { status: "rejected", code: "COMPANY_DISSOLVED" },
    accounts: { status: "rejected", code: "COMPANY_DISSOLVED" },
  },
  {
    number: "NI000001",
    jurisdiction: "Northern Ireland",
    ct600PeriodEnd: "2026-08-31",
    accountsPeriodEnd: "2026-08-31",
    ct600: { status: "accepted" },
    accounts: { status: "accepted" },
  },
  {
    number: "NI000002",
    jurisdiction: "Northern Ireland",
    ct600PeriodEnd: "2026-03-03",
    accountsPeriodEnd: "2026-03-31",
    ct600: { status: "rejected", code: "AUTH_CODE_INVALID" },
    accounts: { status: "rejected", code: "AUTH_CODE_INVALID" },
  },
];

/** Third-party credentials as a caller sends them (the simulator accepts any but its refused values). */
export const CT600_CREDENTIALS = { government_gateway_id: "SYSTEST-AGENT-01", government_gateway_password: "system-test-gateway-password" };
export const ACCOUNTS_CREDENTIALS = { company_auth_code: "A1B2C3" };

export function ct600Body(companyNumber: string, periodEnd: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { company_number: companyNumber, utr: "1234567890", period_end: periodEnd, ...extra, credentials: CT600_CREDENTIALS };
}

export function accountsBody(companyNumber: string, periodEnd: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { company_number: companyNumber, period_end: periodEnd, ...extra, credentials: ACCOUNTS_CREDENTIALS };
}

/** A filing to submit: its kind, body and the outcome the table gives. */
export interface PlannedFiling {
  kind: FilingKind;
  company: string;
  body: Record<string, unknown>;
  expected: ExpectedOutcome;
}

/** A CT600 and dormant accounts for every company of the table. */
export function tableFilings(): PlannedFiling[] {
  return TABLE_COMPANIES.flatMap((company) => [
    { kind: "ct600" as const, company: company.number, body: ct600Body(company.number, company.ct600PeriodEnd), expected: company.ct600 },
    {
      kind: "accounts" as const,
      company: company.number,
      body: accountsBody(company.number, company.accountsPeriodEnd),
      expected: company.accounts,
    },
  ]);
}

/**
 * `count` filings of both kinds for companies that end accepted or rejected (never the silent
 * 00000004), with a 16-month (split) CT600 among them, in a fixed rotation, no two of the same
 * type, company and period end.
 */
export function mixedFilings(count: number): PlannedFiling[] {
  const rotation: PlannedFiling[] = [
    { kind: "ct600", company: "00000001", body: ct600Body("00000001", "2026-03-31"), expected: { status: "accepted" } },
    { kind: "accounts", company: "SC000001", body: accountsBody("SC000001", "2026-10-31"), expected: { status: "accepted" } },
    { kind: "ct600", company: "NI000001", body: ct600Body("NI000001", "2026-08-31"), expected: { status: "accepted" } },
    { kind: "accounts", company: "00000001", body: accountsBody("00000001", "2026-03-31"), expected: { status: "accepted" } },
    {
      kind: "ct600",
      company: "00000002",
      body: ct600Body("00000002", "2026-09-30"),
      expected: { status: "rejected", code: "TAX_UTR_MISMATCH" },
    },
    { kind: "accounts", company: "00000005", body: accountsBody("00000005", "2026-05-31"), expected: { status: "accepted" } },
    {
      kind: "ct600",
      company: "00000001",
      body: ct600Body("00000001", "2026-07-31", { period: { start: "2025-04-01" } }),
      expected: { status: "accepted" },
    },
    {
      kind: "accounts",
      company: "NI000002",
      body: accountsBody("NI000002", "2026-03-31"),
      expected: { status: "rejected", code: "AUTH_CODE_INVALID" },
    },
  ];
  // One account may have one live filing per type, company and period end (409 FILING_EXISTS):
  // each round of the rotation ends its periods a day earlier than the round before.
  return Array.from({ length: count }, (_, index) => {
    const filing = rotation[index % rotation.length]!;
    const round = Math.floor(index / rotation.length);
    if (round === 0) return filing;
    return { ...filing, body: { ...filing.body, period_end: daysBefore(String(filing.body.period_end), round) } };
  });
}

/** The calendar date `days` days before `date` (YYYY-MM-DD). */
function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}
