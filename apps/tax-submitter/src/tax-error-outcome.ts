import type { FilingError, FilingErrorCode } from "@dormant/contracts";
import type { Ct600ErrorAnswer } from "@dormant/govtalk";

/** A final answer that is not an acceptance, as the part's outcome reports it. */
export interface TaxErrorOutcome {
  outcome: "rejected" | "error";
  error: FilingError;
  authority_errors: { number: number | null; text: string }[];
}

/**
 * Business rules (`Body/ErrorResponse` numbers of an error 3001) with a filing error code of
 * their own, most decisive first. 9100 is the authority's published rule (UTR keys = Reference);
 * 9601-9603 are the simulator's rules for the sandbox table's companies (see
 * apps/authority-sim/README.md). Any other rule is TAX_REJECTED with the authority's text.
 */
const RULE_CODES: readonly { rules: readonly number[]; code: FilingErrorCode }[] = [
  { rules: [9602], code: "COMPANY_DISSOLVED" },
  { rules: [9100, 9601], code: "TAX_UTR_MISMATCH" },
  { rules: [9603], code: "AUTH_CODE_INVALID" },
];

/** Error 3304: the original return for this period has already been received. */
const ALREADY_RECEIVED = 3304;
/** Error 2000: the CorrelationID is unknown to the engine. */
const UNKNOWN_CORRELATION = 2000;

function texts(answer: Ct600ErrorAnswer): string {
  const items = answer.details.length > 0 ? answer.details : answer.errors;
  return (
    items
      .map((item) => item.text)
      .filter(Boolean)
      .join(" ") || answer.classification.summary
  );
}

/**
 * Maps the tax authority's final error answer to the part's outcome: business rejections are
 * `rejected` (3304 PERIOD_ALREADY_FILED; 3001 by its rules, see RULE_CODES; anything else
 * TAX_REJECTED), refused credentials are `error` CREDENTIALS_INVALID, and a message the authority
 * could not process (schema, IRmark, unknown CorrelationID) is `error` INTERNAL_ERROR.
 * Transient errors never get here: they are retried until the give-up time.
 */
export function taxErrorOutcome(answer: Ct600ErrorAnswer): TaxErrorOutcome {
  const authority_errors = [...answer.errors, ...answer.details].map((item) => ({ number: item.number, text: item.text }));
  const numbers = new Set([...answer.errors, ...answer.details].map((item) => item.number));
  const { kind, summary } = answer.classification;
  const result = (outcome: "rejected" | "error", code: FilingErrorCode, message: string): TaxErrorOutcome => ({
    outcome,
    error: { code, message },
    authority_errors,
  });

  if (kind === "authentication")
    return result("error", "CREDENTIALS_INVALID", `The tax authority refused the Government Gateway credentials: ${summary}`);
  if (kind === "business") {
    if (numbers.has(ALREADY_RECEIVED)) return result("rejected", "PERIOD_ALREADY_FILED", texts(answer));
    const match = RULE_CODES.find(({ rules }) => rules.some((rule) => numbers.has(rule)));
    return result("rejected", match?.code ?? "TAX_REJECTED", texts(answer));
  }
  if (numbers.has(UNKNOWN_CORRELATION)) {
    return result(
      "error",
      "INTERNAL_ERROR",
      "The tax authority no longer knows this submission (error 2000); its outcome was not received.",
    );
  }
  return result("error", "INTERNAL_ERROR", `The tax authority could not process the submission: ${summary}`);
}
