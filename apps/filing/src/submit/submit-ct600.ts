import {
  credentialsBinding,
  Ct600Credentials,
  TAX_SUBMIT_QUEUE,
  type Ct600SubmitResponse,
  type SubmitCt600Request,
} from "@dormant/contracts";
import type { SubmitDeps } from "../deps.ts";
import { submitFingerprint } from "../fingerprint.ts";
import { isFinalFiling } from "../state/filing-state.ts";
import { planCt600Filing } from "./ct600-plan.ts";
import { openCredentials, sealForSubmission } from "./credentials.ts";
import type { TaxPartDraft } from "./new-filing.ts";
import { recordTaxPartSubmitted } from "./record-submission.ts";
import { runSubmit } from "./run-submit.ts";
import { ct600SubmitResponse } from "./submit-response.ts";

/**
 * Sends each CT600 part the tax authority has not acknowledged yet, in order, and records each
 * acknowledgement before the next. Stops when the filing ended meanwhile (a part rejected).
 */
async function sendTaxParts(deps: SubmitDeps, filingId: string, credentials: Ct600Credentials, requestId: string): Promise<void> {
  const filing = await deps.db.filing.findUniqueOrThrow({ where: { id: filingId }, include: { parts: { orderBy: { partNumber: "asc" } } } });
  for (const part of filing.parts) {
    if (part.taxCorrelationId !== null) continue;
    const { status } = await deps.db.filing.findUniqueOrThrow({ where: { id: filingId }, select: { status: true } });
    if (isFinalFiling(status)) return;
    const request = { ...(part.submitRequest as TaxPartDraft), credentials: sealForSubmission(credentials, deps.sealingKeys[0], filingId, part.partNumber) };
    const response = await deps.bus.rpcCall(TAX_SUBMIT_QUEUE, "tax.submit_part", request);
    await recordTaxPartSubmitted(deps.db, filingId, part.partNumber, response, requestId);
  }
}

/** `filing.submit_ct600`: POST /filings/ct600 of a live key. */
export function submitCt600(deps: SubmitDeps, request: SubmitCt600Request): Promise<Ct600SubmitResponse> {
  const credentials = openCredentials(
    request.credentials,
    deps.sealingKeys,
    credentialsBinding(request.caller.account_id, request.idempotency_key),
    Ct600Credentials,
  );
  return runSubmit(deps, {
    caller: request.caller,
    idempotencyKey: request.idempotency_key,
    fingerprint: submitFingerprint("ct600", request.filing),
    authority: "tax",
    plan: () => planCt600Filing(deps.registry, request.filing, deps.now()),
    send: (filingId) => sendTaxParts(deps, filingId, credentials, request.caller.request_id),
    respond: (filingId) => ct600SubmitResponse(deps.db, filingId),
  });
}
