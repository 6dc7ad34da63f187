import {
  addDays,
  addMonths,
  compareDates,
  daysInMonth,
  formatIsoDate,
  parseIsoDate,
  type AccountsFigures,
  type CompanyProfile,
  type FilingHistoryItem,
  type Officer,
  type RegisteredOfficeAddress,
} from "@dormant/company-data";

/** What the public data API serves for one company. */
export interface RegistryCompany {
  profile: CompanyProfile;
  officers: Officer[];
  /** Every category, newest first (the API filters by `category`). */
  filings: FilingHistoryItem[];
}

/** A compact description of a company from which its API answers are derived consistently. */
export interface CompanySpec {
  number: string;
  name: string;
  status: "active" | "dissolved";
  jurisdiction: "england-wales" | "scotland" | "northern-ireland";
  incorporatedOn: string;
  address: RegisteredOfficeAddress;
  /** Accounts already filed, oldest first. Empty: the company is in its first year. */
  filedAccounts: { madeUpTo: string; filedOn: string }[];
  /** Balance sheet of every filed set of accounts (the simulator's filing-history extension). */
  figures: AccountsFigures;
  officers: Officer[];
}

export function endOfMonth(date: string): string {
  const { year, month } = parseIsoDate(date);
  return formatIsoDate({ year, month, day: daysInMonth(year, month) });
}

/** First accounting period end: the last day of the month of the first anniversary. */
export function firstPeriodEnd(incorporatedOn: string): string {
  return endOfMonth(addMonths(incorporatedOn, 12));
}

function transactionId(number: string, date: string, type: string): string {
  return Buffer.from(`${number}:${type}:${date}`).toString("base64url");
}

function accountsFiling(spec: CompanySpec, madeUpTo: string, filedOn: string): FilingHistoryItem {
  return {
    transaction_id: transactionId(spec.number, madeUpTo, "AA"),
    category: "accounts",
    type: "AA",
    date: filedOn,
    description: "accounts-with-accounts-type-dormant",
    description_values: { made_up_date: madeUpTo },
    accounts_figures: spec.figures,
  };
}

/**
 * Derives the profile (accounting reference date, last and next accounts, due date), the
 * officers and the filing history from a spec, with the registry's rules: the first period
 * ends on the last day of the anniversary month and is due 21 months after incorporation;
 * later periods run 12 months and are due 9 months after they end.
 */
export function buildRegistryCompany(spec: CompanySpec, asOf: string): RegistryCompany {
  const last = spec.filedAccounts.at(-1);
  const previous = spec.filedAccounts.at(-2);
  const nextStart = last ? addDays(last.madeUpTo, 1) : spec.incorporatedOn;
  const nextEnd = last ? endOfMonth(addMonths(last.madeUpTo, 12)) : firstPeriodEnd(spec.incorporatedOn);
  const dueOn = last ? endOfMonth(addMonths(nextEnd, 9)) : addMonths(spec.incorporatedOn, 21);
  const referenceDate = parseIsoDate(nextEnd);
  const profile: CompanyProfile = {
    company_name: spec.name,
    company_number: spec.number,
    company_status: spec.status,
    type: "ltd",
    date_of_creation: spec.incorporatedOn,
    jurisdiction: spec.jurisdiction,
    registered_office_address: spec.address,
    accounts: {
      accounting_reference_date: {
        day: String(referenceDate.day),
        month: String(referenceDate.month).padStart(2, "0"),
      },
      next_accounts: {
        period_start_on: nextStart,
        period_end_on: nextEnd,
        due_on: dueOn,
        overdue: spec.status === "active" && compareDates(dueOn, asOf) < 0,
      },
      last_accounts: last
        ? {
            made_up_to: last.madeUpTo,
            period_start_on: previous ? addDays(previous.madeUpTo, 1) : spec.incorporatedOn,
            period_end_on: last.madeUpTo,
            type: "dormant",
          }
        : { type: "null" },
    },
  };
  const incorporation: FilingHistoryItem = {
    transaction_id: transactionId(spec.number, spec.incorporatedOn, "NEWINC"),
    category: "incorporation",
    type: "NEWINC",
    date: spec.incorporatedOn,
    description: "incorporation-company",
  };
  const accounts = spec.filedAccounts.map((filed) => accountsFiling(spec, filed.madeUpTo, filed.filedOn));
  const filings = [incorporation, ...accounts].sort((a, b) => compareDates(b.date, a.date));
  return { profile, officers: spec.officers, filings };
}
