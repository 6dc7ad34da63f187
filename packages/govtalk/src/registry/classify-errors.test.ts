import { describe, expect, it } from "vitest";
import type { GovTalkError, GovTalkErrorInput } from "../envelope/govtalk-error.ts";
import { REGISTRY_ERRORS, REGISTRY_INVALID_ENVELOPE_NUMBER, buildRegistryErrorResponse } from "./answers.ts";
import { classifyRegistryErrors, isDuplicateSubmissionError } from "./classify-errors.ts";
import { parseAccountsSubmissionResponse } from "./parse-response.ts";

/** The errors as a submitter reads them from the gateway's answer. */
function received(...errors: GovTalkErrorInput[]): GovTalkError[] {
  const answer = parseAccountsSubmissionResponse(buildRegistryErrorResponse({ class: "Accounts", transactionId: "0A1B", errors }));
  if (answer.type !== "error") throw new Error("expected an error answer");
  return answer.errors;
}

describe("registry gateway errors", () => {
  it.each([
    [REGISTRY_ERRORS[100], "protocol", false],
    [REGISTRY_ERRORS[502], "authentication", false],
    [REGISTRY_INVALID_ENVELOPE_NUMBER, "business", false],
    [REGISTRY_ERRORS[9999], "business", false],
    [{ ...REGISTRY_ERRORS[9999], text: "ix:header element not found in input document set." }, "business", false],
    [{ ...REGISTRY_ERRORS[9999], type: "recoverable", text: "Please retry later" }, "transient", true],
    [{ raisedBy: "Gateway", number: 4242, type: "business", text: "Other" }, "business", false],
  ] as const)("classifies %o", (error, kind, retryable) => {
    expect(classifyRegistryErrors(received(error))).toMatchObject({ kind, retryable, decisive: { number: error.number } });
  });

  it("lets an authentication failure outrank the rest", () => {
    expect(classifyRegistryErrors(received(REGISTRY_ERRORS[9999], REGISTRY_ERRORS[502])).kind).toBe("authentication");
  });

  it("recognises a reused submission number: 9999 about the envelope number (the real gateway's answer)", () => {
    expect(isDuplicateSubmissionError(received(REGISTRY_INVALID_ENVELOPE_NUMBER))).toBe(true);
    expect(isDuplicateSubmissionError(received({ ...REGISTRY_ERRORS[9999], text: "Invalid Envelope Number" }))).toBe(true);
    expect(isDuplicateSubmissionError(received({ ...REGISTRY_ERRORS[9999], text: "Submission number already used" }))).toBe(true);
  });

  it("does not take other errors for a duplicate", () => {
    for (const error of [
      REGISTRY_ERRORS[100],
      REGISTRY_ERRORS[502],
      REGISTRY_ERRORS[9999],
      { ...REGISTRY_ERRORS[9999], text: "The company number in the accounts does not match the company number of the submission." },
      { ...REGISTRY_INVALID_ENVELOPE_NUMBER, type: "warning" },
      { ...REGISTRY_INVALID_ENVELOPE_NUMBER, number: 9000 },
    ]) {
      expect(isDuplicateSubmissionError(received(error)), error.text).toBe(false);
    }
    expect(isDuplicateSubmissionError([])).toBe(false);
  });
});
