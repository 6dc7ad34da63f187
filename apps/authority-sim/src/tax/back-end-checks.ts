import { checkCt600BusinessRules, taxError, type Ct600SubmitRequest } from "@dormant/govtalk";
import type { SimContext } from "../context.ts";
import type { TaxOutcome } from "../sandbox/scenarios.ts";
import { attachedIxbrlErrors } from "./attached-ixbrl-checks.ts";
import { irenvelopeText } from "./ct-schema-check.ts";
import { ownRuleErrors } from "./own-business-rules.ts";

function firstLine(text: string): string {
  return text.split("\n")[0]?.trim() ?? text;
}

/**
 * The checks the tax authority's back end (ChRIS) makes on a submission the Transaction Engine
 * has acknowledged, in its order: the CT schema (1001), the IRmark (2022 missing, 2021 wrong),
 * then HMRC's business rules and the attached iXBRL documents' presence checks (3001 with each
 * failure's number, text and location, the rules first, as in HMRC's real answer). Their
 * result is the answer to a poll, never to the submission (README, "Tax: the Transaction
 * Engine"). Undefined when the return passes them all.
 *
 * The business rules are HMRC's own (`checkCt600BusinessRules`: the compiled XSLT in a child
 * process, so this never blocks the event loop); with SIM_BUSINESS_RULES=off only rules 9100 and
 * 9101, re-implemented by the simulator (own-business-rules.ts).
 */
export async function backEndChecks(request: Ct600SubmitRequest, xml: string, context: SimContext): Promise<TaxOutcome | undefined> {
  const irenvelope = irenvelopeText(request.envelope.body);
  if (!irenvelope) return { kind: "error", number: 1001, text: `${taxError(1001).text} The Body has no IRenvelope.` };
  const schema = await context.ctSchema.validate(irenvelope);
  if (!schema.valid) {
    const detail = schema.errors.map(firstLine).slice(0, 3).join(" ");
    return { kind: "error", number: 1001, text: `${taxError(1001).text} ${detail}`.trim() };
  }

  if (request.irmarkStatus === "missing") return { kind: "error", number: 2022 };
  if (request.irmarkStatus === "incorrect") return { kind: "error", number: 2021 };

  const [rules, ixbrl] = await Promise.all([
    context.config.tax.businessRules
      ? checkCt600BusinessRules(xml).then((failures) => failures.map(({ number, text, location }) => ({ number, text, location })))
      : Promise.resolve(ownRuleErrors(request)),
    attachedIxbrlErrors(request.envelope.body, context.xmlOutliner),
  ]);
  const failures = [...rules, ...ixbrl];
  return failures.length > 0 ? { kind: "business-errors", rules: failures } : undefined;
}
