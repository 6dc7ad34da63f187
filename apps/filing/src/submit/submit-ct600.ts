import {
  Ct600Credentials,
  TAX_SUBMIT_QUEUE,
  type Ct600SubmitResponse,
  type SubmitCt600Request,
  type SubmitTaxPartRequest,
} from "@dormant/contracts";
import type { SubmitDeps } from "./submit-deps.ts";
import { isFinalFiling } from "../state/filing-state.ts";
import { attachedAccounts, readCt600Accounts, type Ct600Accounts } from "./accounts-for-ct600.ts";
import { planCt600Filing } from "./ct600-plan.ts";
import { sealForSubmission } from "./credentials.ts";
import type { TaxPartDraft } from "./new-filing.ts";
import { recordTaxPartSubmitted, type Recorded } from "./record-submission.ts";
import type { HeldFiling } from "./run-submit.ts";
import { runSealedSubmit } from "./sealed-submit.ts";
import { ct600SubmitResponse } from "./submit-response.ts";

/**
 * The tax.submit_part request of a stored part, without credentials: with the accounts it refers
 * to attached (as found when this request created the filing, or read again once to resume), or
 * with none (the dormant reason form).
 */
async function partRequest(
  deps: SubmitDeps,
  held: HeldFiling,
  draft: TaxPartDraft,
  cache: Map<string, Ct600Accounts | null>,
): Promise<Omit<SubmitTaxPartRequest, "credentials">> {
  const { accounts_filing_id: accountsFilingId, ...request } = draft;
  if (accountsFilingId === undefined) return request;
  if (held.ct600Accounts?.filingId === accountsFilingId) cache.set(accountsFilingId, held.ct600Accounts);
  if (!cache.has(accountsFilingId)) cache.set(accountsFilingId, await readCt600Accounts(deps.db, accountsFilingId));
  const accounts = cache.get(accountsFilingId);
  if (!accounts) {
    deps.logger.warn(
      { filing_id: draft.filing_id, accounts_filing_id: accountsFilingId },
      "the accounts this CT600 attaches are gone; sent with the dormant reason",
    );
    return request;
  }
  return { ...request, accounts: attachedAccounts(accounts, request) };
}

/**
 * Sends each CT600 part the tax authority has not acknowledged yet, in order, and records each
 * acknowledgement before the next (the last one drops this request's claim). Stops when the
 * filing ended meanwhile (a part rejected), as the claim or the previous acknowledgement found it.
 */
async function sendTaxParts(deps: SubmitDeps, held: HeldFiling, credentials: Ct600Credentials, requestId: string): Promise<Recorded> {
  let sent: Recorded = { filing: held.filing, eventWritten: false };
  const accounts = new Map<string, Ct600Accounts | null>();
  for (const { partNumber } of held.filing.parts) {
    const part = sent.filing.parts.find((p) => p.partNumber === partNumber)!;
    if (part.taxCorrelationId !== null) continue;
    if (isFinalFiling(sent.filing.status)) break;
    const draft = part.submitRequest as TaxPartDraft;
    const request = {
      ...(await partRequest(deps, held, draft, accounts)),
      credentials: sealForSubmission(credentials, deps.sealingKeys[0], held.filing.id, partNumber),
    };
    const response = await deps.bus.rpcCall(TAX_SUBMIT_QUEUE, "tax.submit_part", request);
    const recorded = await recordTaxPartSubmitted(deps.db, sent.filing, partNumber, response, requestId, { releaseClaim: held.token });
    sent = { filing: recorded.filing, eventWritten: sent.eventWritten || recorded.eventWritten };
  }
  return sent;
}

const CT600 = {
  filingType: "ct600",
  credentials: Ct600Credentials,
  authority: "tax",
  plan: planCt600Filing,
  send: sendTaxParts,
  respond: ct600SubmitResponse,
} as const;

/** `filing.submit_ct600`: POST /filings/ct600 of a live key. */
export function submitCt600(deps: SubmitDeps, request: SubmitCt600Request): Promise<Ct600SubmitResponse> {
  return runSealedSubmit(deps, request, CT600);
}
