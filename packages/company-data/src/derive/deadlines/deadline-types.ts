import type { DatePeriod } from "../../accounting-period.ts";
import type { IsoDate } from "../../calendar-date.ts";

/** An accounts period the registry expects accounts for: the one it names next, or the one after. */
export interface AccountsPeriodDeadline {
  /** `current`: the registry's next accounts (the earliest not yet filed); `next`: the period after it. */
  kind: "current" | "next";
  period: DatePeriod;
  /** The registry's filing deadline for the accounts. */
  dueOn: IsoDate;
  /** The deadline has passed (or the registry says so) and the accounts are not filed. */
  overdue: boolean;
}

/** One CT600 return's period (at most 12 months) within an accounts period. */
export interface Ct600PeriodDeadline {
  period: DatePeriod;
  /** The end of the accounts period this return belongs to (a CT600 filing's `period_end`). */
  accountsPeriodEnd: IsoDate;
  /** 12 months after the return's period ends. */
  filingDeadline: IsoDate;
  overdue: boolean;
}

export interface CompanyDeadlines {
  /** The current accounts period, then the next one; empty when the registry names no next accounts. */
  accountsPeriods: AccountsPeriodDeadline[];
  /** The CT600 periods of those accounts periods, in date order. */
  ct600Periods: Ct600PeriodDeadline[];
}
