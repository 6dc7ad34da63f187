/** Small builders of registry data for the derivation tests. */
import type { AccountsFigures, CompanyProfile, FilingHistory, FilingHistoryItem, Officer, OfficerList } from "../schemas.ts";

export function companyProfile(change: Partial<CompanyProfile> = {}): CompanyProfile {
  return {
    company_name: "EXAMPLE DORMANT LIMITED",
    company_number: "00000001",
    company_status: "active",
    type: "ltd",
    date_of_creation: "2022-04-14",
    jurisdiction: "england-wales",
    ...change,
  };
}

/** An AA (annual accounts) filing made up to `madeUpDate`, filed a month or so later. */
export function annualAccounts(madeUpDate: string, figures?: AccountsFigures): FilingHistoryItem {
  return {
    category: "accounts",
    type: "AA",
    date: madeUpDate.replace(/^(\d{4})/, (y) => String(Number(y) + 1)),
    description: "accounts-with-accounts-type-dormant",
    description_values: { made_up_date: madeUpDate },
    ...(figures === undefined ? {} : { accounts_figures: figures }),
  };
}

export function filingHistory(...items: FilingHistoryItem[]): FilingHistory {
  return { items };
}

export function officer(name: string, change: Partial<Officer> = {}): Officer {
  return { name, officer_role: "director", appointed_on: "2022-04-14", ...change };
}

export function officerList(...items: Officer[]): OfficerList {
  return { items };
}
