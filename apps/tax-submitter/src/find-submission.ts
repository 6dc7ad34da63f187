import type { AuthorityLookup } from "@dormant/authority-client";
import type { SealingKey, SubmitTaxPartResponse } from "@dormant/contracts";
import { DEFAULT_POLL_INTERVAL_SECONDS, type Ct600DataResponse } from "@dormant/govtalk";
import { openTaxCredentials } from "./open-credentials.ts";
import type { TaxSubmitAttempt } from "./submit-attempt.ts";

/** The Transaction Engine's DATA_REQUEST: the sender's recent submissions (TaxGateway.listSubmissions). */
export type ListSubmissions = (credentials: { senderId: string; password: string }, signal?: AbortSignal) => Promise<Ct600DataResponse>;

/**
 * Asks the Transaction Engine whether it has one filing part whose acknowledgement was lost:
 * lists the sender's submissions (with the credentials the attempt kept sealed for the part) and
 * looks for the part's TransactionID. Found: answered as its acknowledgement would have been
 * (the engine's CorrelationID, the attempt's IRmark and message, the protocol's default poll
 * interval, since the list does not say one). Not listed: `found: false`. A refused or failed
 * list request throws: the part stays in doubt.
 */
export function findSubmittedPart(options: {
  filingId: string;
  partNumber: number;
  sealingKeys: readonly SealingKey[];
  list: ListSubmissions;
}): AuthorityLookup<SubmitTaxPartResponse, TaxSubmitAttempt> {
  return async (attempt, signal) => {
    if (!attempt) throw new Error("the attempt kept nothing to ask the tax authority with");
    const credentials = openTaxCredentials(attempt.credentials, options.sealingKeys, options.filingId, options.partNumber);
    const answer = await options.list(
      { senderId: credentials.government_gateway_id, password: credentials.government_gateway_password },
      signal,
    );
    if (answer.type !== "list") throw new Error(`the tax authority refused the list of submissions (${answer.classification.summary})`);
    const listed = answer.records.find((record) => record.transactionId === attempt.transaction_id);
    if (!listed) return { found: false };
    return {
      found: true,
      response: {
        correlation_id: listed.correlationId,
        irmark_base64: attempt.irmark_base64,
        irmark_base32: attempt.irmark_base32,
        poll_interval_seconds: DEFAULT_POLL_INTERVAL_SECONDS,
        submitted_at: new Date().toISOString(),
        submitted_xml: attempt.submitted_xml,
      },
    };
  };
}
