import { compareDates, isValidIsoDate, type IsoDate } from "../../calendar-date.ts";
import type { FieldProblem } from "../../validation/field-problem.ts";
import type { AccountsFactsInput } from "./facts-input.ts";

/**
 * The date the accounts were approved: the request's, else today. It must not be before the end
 * of the period nor after today; undefined (with a problem) when it is not a real date.
 */
export function approvalDate(input: AccountsFactsInput, problems: FieldProblem[]): IsoDate | undefined {
  const date = input.overrides?.approval?.date ?? input.today;
  if (!isValidIsoDate(date)) {
    problems.push({ path: "approval.date", message: "must be a real date written YYYY-MM-DD" });
    return undefined;
  }
  // (A period end in the future is reported on period_end already.)
  const periodHasEnded = isValidIsoDate(input.periodEnd) && compareDates(input.periodEnd, input.today) <= 0;
  if (periodHasEnded && compareDates(date, input.periodEnd) < 0) {
    problems.push({
      path: "approval.date",
      message: `accounts cannot be approved (${date}) before the end of their period (${input.periodEnd})`,
    });
  }
  if (compareDates(date, input.today) > 0) {
    problems.push({ path: "approval.date", message: `approval date ${date} is in the future (today is ${input.today})` });
  }
  return date;
}
