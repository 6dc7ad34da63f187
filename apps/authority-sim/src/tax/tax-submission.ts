import type { TaxOutcome } from "../sandbox/scenarios.ts";

/** A CT600 submission the simulated transaction engine holds until it is deleted (or evicted). */
export interface TaxSubmission {
  correlationId: string;
  companyNumber: string | undefined;
  utr: string | undefined;
  irmark: { base64: string; base32: string };
  /** The sender's Government Gateway ID: a DATA_REQUEST lists the submissions of its sender. */
  senderId: string | undefined;
  /** `MessageDetails/TransactionID` of the submission, if it carried one (listed by a DATA_REQUEST). */
  transactionId: string | undefined;
  /** When it was taken in (epoch ms). */
  receivedAt: number;
  /** When the outcome becomes visible to polls. */
  readyAt: number;
  /**
   * The answer it will get: the company's scenario until the back end's checks are done
   * (`checked`), then their failure if any (see decideTaxOutcome).
   */
  outcome: TaxOutcome;
  /** Settles (never rejects) once the back end's checks have set the final `outcome`. */
  checked: Promise<void>;
}

/**
 * What the authority will answer for a submission: its scenario's outcome, unless the back end
 * refused the return (schema, IRmark, business rules). A company whose authority stops
 * answering stays silent whatever it sent.
 */
export function decideTaxOutcome(scenarioOutcome: TaxOutcome, backEnd: TaxOutcome | undefined): TaxOutcome {
  if (scenarioOutcome.kind === "no-answer" || backEnd === undefined) return scenarioOutcome;
  return backEnd;
}
