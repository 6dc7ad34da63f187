import { classifyWithTable, type GovTalkErrorClassification, type GovTalkErrorKind } from "../envelope/classify.ts";
import type { GovTalkError } from "../envelope/govtalk-error.ts";

/**
 * Registry gateway error numbers known to mean something specific for a worker. The registry
 * publishes only some of its numbers; 100 is the simulator's (see authority-sim).
 */
export const REGISTRY_ERROR_KINDS: Readonly<Record<number, GovTalkErrorKind>> = {
  100: "protocol", // Invalid request: our message (XML, envelope, form header) is wrong; do not retry
  // Authorisation Failure: the presenter credentials (SenderID / Authentication Value) were
  // refused. A wrong company authentication code is not a 502: the submission is taken and
  // then rejected at examination (a REJECT at the status poll; 601 in the simulator).
  502: "authentication",
  // The registry's number for automatic validation failures: the accounts were rejected (e.g.
  // "ix:header element not found in input document set."); final, the reason is in the Text.
  // The real gateway also answers a reused submission ("envelope") number with 9999: see
  // isDuplicateSubmissionError. A 9999 marked recoverable is retried (see below).
  9999: "business",
};

/** The gateway's text for a reused submission number, as far as it is known. */
const REUSED_SUBMISSION_NUMBER_TEXT = /\b(envelope|submission) number\b/i;

/**
 * True when the gateway refused a FormSubmission because its SubmissionNumber was used before
 * by this presenter: 9999 whose text speaks of the envelope or submission number (the real
 * gateway's "Invalid Envelope Number", REGISTRY_INVALID_ENVELOPE_NUMBER; the simulator answers
 * the same). After a submit whose answer was lost (timeout), resubmitting the same message and
 * getting this answer means the first submission was taken: poll its status by submission
 * number instead of failing. Check this before acting on classifyRegistryErrors, which counts
 * 9999 as business.
 */
export function isDuplicateSubmissionError(errors: readonly GovTalkError[]): boolean {
  return errors.some((error) => error.type !== "warning" && error.number === 9999 && REUSED_SUBMISSION_NUMBER_TEXT.test(error.text));
}

function registryErrorKind(error: GovTalkError): GovTalkErrorKind | undefined {
  if (error.type === "recoverable") return "transient";
  return error.number !== null ? REGISTRY_ERROR_KINDS[error.number] : undefined;
}

/**
 * Classifies the `GovTalkErrors` of a registry gateway answer: an error the gateway marks
 * recoverable is transient (retry later) whatever its number; otherwise known numbers come from
 * REGISTRY_ERROR_KINDS (502 authentication, 100 protocol, 9999 business) and others
 * by Type (business = business, else protocol).
 */
export function classifyRegistryErrors(errors: readonly GovTalkError[]): GovTalkErrorClassification {
  return classifyWithTable(errors, registryErrorKind);
}
