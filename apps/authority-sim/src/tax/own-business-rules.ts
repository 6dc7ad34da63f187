import { isLongerThanTwelveMonths, isValidIsoDate } from "@dormant/company-data";
import type { Ct600SubmitRequest } from "@dormant/govtalk";
import type { TaxRuleError } from "../sandbox/scenarios.ts";

const INFO = "/hd:GovTalkMessage[1]/hd:Body[1]/ct:IRenvelope[1]/ct:CompanyTaxReturn[1]/ct:CompanyInformation[1]";

/**
 * Two of HMRC's business rules re-implemented by the simulator, applied only when HMRC's own
 * rules are switched off (SIM_BUSINESS_RULES=off, e.g. for the live benchmark), so that a wrong
 * UTR or an over-long period is still refused: 9100 (the IRheader's UTR key equals
 * CompanyInformation/Reference) and 9101 (the period covers at most 12 months). Numbers, texts
 * and locations are those of HMRC's CT-2014-v1-96.xslt; the checks themselves are the
 * simulator's own.
 */
export function ownRuleErrors(request: Ct600SubmitRequest): TaxRuleError[] {
  const errors: TaxRuleError[] = [];
  const summary = request.return;
  if (summary.utr === undefined || summary.utr !== summary.reference) {
    errors.push({
      number: 9100,
      text: "There must be a Key element in the IRheader whose Type attribute is UTR and matches the tax reference in Box 3",
      location: `${INFO}/ct:Reference[1]`,
    });
  }
  const { periodFrom: from, periodTo: to } = summary;
  if (from && to && isValidIsoDate(from) && isValidIsoDate(to) && isLongerThanTwelveMonths(from, to)) {
    errors.push({
      number: 9101,
      text: "The return period covered in Boxes 30 and 35 must not be longer than 12 months",
      location: `${INFO}/ct:PeriodCovered[1]`,
    });
  }
  return errors;
}
