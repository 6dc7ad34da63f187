import {
  AccountsCredentials,
  AppError,
  REGISTRY_SUBMIT_QUEUE,
  type AccountsSubmitResponse,
  type SubmitAccountsRequest,
} from "@dormant/contracts";
import type { SubmitDeps } from "./submit-deps.ts";
import { planAccountsFiling } from "./accounts-plan.ts";
import { sealForSubmission } from "./credentials.ts";
import type { RegistryRequestRecord } from "./new-filing.ts";
import { recordRegistrySubmitted, type Recorded } from "./record-submission.ts";
import type { HeldFiling } from "./run-submit.ts";
import { runSealedSubmit } from "./sealed-submit.ts";
import { accountsSubmitResponse } from "./submit-response.ts";

/** The registry submission is part 1 of the filing for the credentials' binding. */
const REGISTRY_PART = 1;

/** The iXBRL as planned (a filing created by this request) or as stored (a resumed one). */
async function storedIxbrl(deps: SubmitDeps, held: HeldFiling): Promise<Uint8Array> {
  const planned = held.plan?.documents.find((d) => d.type === "ixbrl_accounts");
  if (planned) return planned.content;
  const rows = await deps.db.$queryRaw<Array<{ content: Uint8Array }>>`
    SELECT content FROM documents WHERE filing_id = ${held.filing.id} AND type = 'ixbrl_accounts'`;
  if (!rows[0]) throw new AppError("INTERNAL_ERROR", "The filing has no iXBRL accounts to send");
  return rows[0].content;
}

/**
 * Sends the accounts (the stored iXBRL, byte for byte) unless the registry already acknowledged
 * them, and records the acknowledgement (dropping this request's claim).
 */
async function sendAccounts(deps: SubmitDeps, held: HeldFiling, credentials: AccountsCredentials, requestId: string): Promise<Recorded> {
  const { filing } = held;
  if (filing.registryStatus !== "pending") return { filing, eventWritten: false };
  const draft = filing.registryRequest as RegistryRequestRecord;
  const response = await deps.bus.rpcCall(REGISTRY_SUBMIT_QUEUE, "registry.submit_accounts", {
    ...draft,
    ixbrl_base64: Buffer.from(await storedIxbrl(deps, held)).toString("base64"),
    credentials: sealForSubmission(credentials, deps.sealingKeys[0], filing.id, REGISTRY_PART),
  });
  return recordRegistrySubmitted(deps.db, filing, response, requestId, { releaseClaim: held.token });
}

const ACCOUNTS = {
  filingType: "accounts",
  credentials: AccountsCredentials,
  authority: "registry",
  plan: planAccountsFiling,
  send: sendAccounts,
  respond: accountsSubmitResponse,
} as const;

/** `filing.submit_accounts`: POST /filings/accounts of a live key. */
export function submitAccounts(deps: SubmitDeps, request: SubmitAccountsRequest): Promise<AccountsSubmitResponse> {
  return runSealedSubmit(deps, request, ACCOUNTS);
}
