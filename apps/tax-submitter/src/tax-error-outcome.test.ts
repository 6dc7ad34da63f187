import {
  buildCt600ErrorResponse,
  parseCt600Response,
  taxError,
  taxRuleError,
  type Ct600ErrorAnswer,
  type TaxErrorNumber,
} from "@dormant/govtalk";
import { describe, expect, it } from "vitest";
import { taxErrorOutcome } from "./tax-error-outcome.ts";

/** An error answer exactly as the authority (and the simulator) writes it. */
function answer(number: TaxErrorNumber, rules: { number: number; text: string }[] = []): Ct600ErrorAnswer {
  const xml = buildCt600ErrorResponse({
    errors: [taxError(number)],
    correlationId: "0123456789ABCDEF0123456789ABCDEF",
    details: rules.map((rule) => taxRuleError(rule.number, rule.text)),
    gatewayTimestamp: "2026-05-01T10:00:00.000",
  });
  const parsed = parseCt600Response(xml);
  if (parsed.type !== "error") throw new Error("not an error answer");
  return parsed;
}

describe("taxErrorOutcome", () => {
  it.each([
    [9100, "TAX_UTR_MISMATCH"],
    [9601, "TAX_UTR_MISMATCH"],
    [9602, "COMPANY_DISSOLVED"],
    [9603, "AUTH_CODE_INVALID"],
    [9101, "TAX_REJECTED"],
    [9604, "TAX_REJECTED"],
  ] as const)("3001 with rule %i: rejected %s, with the rule's text", (rule, code) => {
    const outcome = taxErrorOutcome(answer(3001, [{ number: rule, text: `Rule ${rule} failed.` }]));
    expect(outcome).toMatchObject({ outcome: "rejected", error: { code, message: `Rule ${rule} failed.` } });
    expect(outcome.authority_errors.map((e) => e.number)).toEqual([3001, rule]);
  });

  it("picks the most decisive rule when several failed", () => {
    const outcome = taxErrorOutcome(
      answer(3001, [
        { number: 9101, text: "Too long." },
        { number: 9602, text: "Dissolved." },
      ]),
    );
    expect(outcome.error).toEqual({ code: "COMPANY_DISSOLVED", message: "Too long. Dissolved." });
  });

  it("3304: rejected PERIOD_ALREADY_FILED", () => {
    expect(taxErrorOutcome(answer(3304))).toMatchObject({ outcome: "rejected", error: { code: "PERIOD_ALREADY_FILED" } });
  });

  it("1046: error CREDENTIALS_INVALID", () => {
    expect(taxErrorOutcome(answer(1046))).toMatchObject({ outcome: "error", error: { code: "CREDENTIALS_INVALID" } });
  });

  it.each([2000, 1001, 2021] as const)("%i: error INTERNAL_ERROR", (number) => {
    expect(taxErrorOutcome(answer(number))).toMatchObject({ outcome: "error", error: { code: "INTERNAL_ERROR" } });
  });
});
