import type { AccountsOverrides, Ct600Overrides } from "@dormant/contracts";
import type { IsoDate } from "../../calendar-date.ts";
import type { CompanyProfile, FilingHistory, OfficerList } from "../../schemas.ts";

interface FactsInputBase {
  /** From the registry data client. */
  profile: CompanyProfile;
  officers: OfficerList;
  filingHistory: FilingHistory;
  /** The request's `period_end`. */
  periodEnd: IsoDate;
  /** The current date in the authorities' time zone (calendarDateAt(new Date())). */
  today: IsoDate;
}

export interface Ct600FactsInput extends FactsInputBase {
  filingType: "ct600";
  overrides?: Ct600Overrides;
}

export interface AccountsFactsInput extends FactsInputBase {
  filingType: "accounts";
  overrides?: AccountsOverrides;
}

export type CompanyFactsInput = Ct600FactsInput | AccountsFactsInput;
