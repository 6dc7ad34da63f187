import { parseIsoDate, type IsoDate } from "../../calendar-date.ts";
import type { CompanyProfile } from "../../schemas.ts";
import { deriveAccountsPeriods } from "./accounts-periods.ts";
import { deriveCt600Periods } from "./ct600-periods.ts";
import type { CompanyDeadlines } from "./deadline-types.ts";

/**
 * A company's filing deadlines from its registry profile and today's date (London): the
 * current and next accounts periods with their registry due dates, and their CT600 returns with
 * their filing deadlines, each with whether it is overdue. Throws a RangeError only for an
 * invalid `today` (a caller bug).
 */
export function deriveCompanyDeadlines(profile: CompanyProfile, today: IsoDate): CompanyDeadlines {
  parseIsoDate(today);
  const accountsPeriods = deriveAccountsPeriods(profile, today);
  return { accountsPeriods, ct600Periods: deriveCt600Periods(accountsPeriods, today) };
}
