import {
  AccountsCredentials,
  AppError,
  credentialsBinding,
  REGISTRY_SUBMIT_QUEUE,
  type AccountsSubmitResponse,
  type SubmitAccountsRequest,
} from "@dormant/contracts";
import type { SubmitDeps } from "../deps.ts";
import { submitFingerprint } from "../fingerprint.ts";
import { planAccountsFiling } from "./accounts-plan.ts";
import { openCredentials, sealForSubmission } from "./credentials.ts";
import type { RegistryRequestRecord } from "./new-filing.ts";
import { recordRegistrySubmitted } from "./record-submission.ts";
import { runSubmit } from "./run-submit.ts";
import { accountsSubmitResponse } from "./submit-response.ts";

/** The registry submission is part 1 of the filing for the credentials' binding. */
const REGISTRY_PART = 1;

/** Sends the accounts (the stored iXBRL, byte for byte) unless the registry already acknowledged them. */
async function sendAccounts(deps: SubmitDeps, filingId: string, credentials: AccountsCredentials, requestId: string): Promise<void> {
  const filing = await deps.db.filing.findUniqueOrThrow({ where: { id: filingId } });
  if (filing.registryStatus !== "pending") return;
  const document = await deps.db.document.findFirst({ where: { filingId, type: "ixbrl_accounts" } });
  if (!document) throw new AppError("INTERNAL_ERROR", "The filing has no iXBRL accounts to send");
  const draft = filing.registryRequest as RegistryRequestRecord;
  const response = await deps.bus.rpcCall(REGISTRY_SUBMIT_QUEUE, "registry.submit_accounts", {
    ...draft,
    ixbrl_base64: Buffer.from(document.content).toString("base64"),
    credentials: sealForSubmission(credentials, deps.sealingKeys[0], filingId, REGISTRY_PART),
  });
  await recordRegistrySubmitted(deps.db, filingId, response, requestId);
}

/** `filing.submit_accounts`: POST /filings/accounts of a live key. */
export function submitAccounts(deps: SubmitDeps, request: SubmitAccountsRequest): Promise<AccountsSubmitResponse> {
  const credentials = openCredentials(
    request.credentials,
    deps.sealingKeys,
    credentialsBinding(request.caller.account_id, request.idempotency_key),
    AccountsCredentials,
  );
  return runSubmit(deps, {
    caller: request.caller,
    idempotencyKey: request.idempotency_key,
    fingerprint: submitFingerprint("accounts", request.filing),
    authority: "registry",
    plan: () => planAccountsFiling(deps.registry, request.filing, deps.now()),
    send: (filingId) => sendAccounts(deps, filingId, credentials, request.caller.request_id),
    respond: (filingId) => accountsSubmitResponse(deps.db, filingId),
  });
}
