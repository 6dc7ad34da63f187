import { periodEndAfterMonths } from "../../accounting-period.ts";
import { addDays, compareDates, type IsoDate } from "../../calendar-date.ts";
import type { CompanyProfile } from "../../schemas.ts";
import { derivePeriodStart } from "../period-start.ts";
import type { AccountsPeriodDeadline } from "./deadline-types.ts";
import { nextReferenceDate } from "./next-reference-date.ts";
import { registryDueOn } from "./registry-due-date.ts";

const isPast = (deadline: IsoDate, today: IsoDate) => compareDates(today, deadline) > 0;

/**
 * The current accounts period, as the registry's `next_accounts` gives it (its start derived
 * when absent, its due date computed when absent), and the next one: from the day after to the
 * next accounting reference date (12 months on when the registry gives none), due 9 months after
 * it ends (6 for a plc). Empty when the registry names no next accounts period end (e.g. a
 * dissolved company).
 */
export function deriveAccountsPeriods(profile: CompanyProfile, today: IsoDate): AccountsPeriodDeadline[] {
  const next = profile.accounts?.next_accounts;
  const currentEnd = next?.period_end_on;
  if (currentEnd === undefined) return [];
  const currentStart = next?.period_start_on ?? derivePeriodStart(profile);
  const currentDue = next?.due_on ?? registryDueOn(currentEnd, profile.type);
  const nextStart = addDays(currentEnd, 1);
  const reference = profile.accounts?.accounting_reference_date;
  const nextEnd = reference === undefined ? periodEndAfterMonths(nextStart, 12) : nextReferenceDate(reference, currentEnd);
  const nextDue = registryDueOn(nextEnd, profile.type);
  return [
    {
      kind: "current",
      period: { start: currentStart, end: currentEnd },
      dueOn: currentDue,
      overdue: next?.overdue === true || isPast(currentDue, today),
    },
    { kind: "next", period: { start: nextStart, end: nextEnd }, dueOn: nextDue, overdue: isPast(nextDue, today) },
  ];
}
