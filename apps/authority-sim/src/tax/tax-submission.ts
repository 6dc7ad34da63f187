import { isLongerThanTwelveMonths, isValidIsoDate } from "@dormant/company-data";
import type { Ct600SubmitRequest } from "@dormant/govtalk";
import type { TaxOutcome, TaxRuleError } from "../outcomes.ts";

/** A CT600 submission the simulated transaction engine holds until it is deleted (or evicted). */
export interface TaxSubmission {
  correlationId: string;
  companyNumber: string | undefined;
  utr: string | undefined;
  irmark: { base64: string; base32: string };
  /** When the outcome becomes visible to polls. */
  readyAt: number;
  outcome: TaxOutcome;
}

const INFO = "/hd:GovTalkMessage[1]/hd:Body[1]/ct:IRenvelope[1]/ct:CompanyTaxReturn[1]/ct:CompanyInformation[1]";

/**
 * The real business rules the simulator checks on every return (9100: the UTR keys equal the
 * return's Reference; 9101: the period covers at most 12 months).
 */
export function businessRuleErrors(request: Ct600SubmitRequest): TaxRuleError[] {
  const errors: TaxRuleError[] = [];
  const summary = request.return;
  const utrs = [request.utrKey, summary.utr, summary.reference];
  if (utrs.some((utr) => utr === undefined || utr !== summary.reference)) {
    errors.push({
      number: 9100,
      text: "The UTR in the message keys and in the return header must be the same as the Reference in Company Information.",
      location: `${INFO}/ct:Reference[1]`,
    });
  }
  const { periodFrom: from, periodTo: to } = summary;
  if (from && to && isValidIsoDate(from) && isValidIsoDate(to) && isLongerThanTwelveMonths(from, to)) {
    errors.push({
      number: 9101,
      text: "The period covered by the return must not exceed 12 months.",
      location: `${INFO}/ct:PeriodCovered[1]/ct:To[1]`,
    });
  }
  return errors;
}

/**
 * What the authority will answer for a submission: its scenario's outcome, unless the return
 * breaks a business rule (then error 3001 with those rules). A company whose authority stops
 * answering stays silent whatever it sent.
 */
export function decideTaxOutcome(scenarioOutcome: TaxOutcome, ruleErrors: TaxRuleError[]): TaxOutcome {
  if (scenarioOutcome.kind === "no-answer" || ruleErrors.length === 0) return scenarioOutcome;
  return { kind: "business-errors", rules: ruleErrors };
}
