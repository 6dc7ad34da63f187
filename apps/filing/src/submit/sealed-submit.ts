import { credentialsBinding, openSealedCredentials, type FilingRpcCaller, type SealedSecret } from "@dormant/contracts";
import type { z } from "zod";
import type { SubmitDeps } from "./submit-deps.ts";
import { submitFingerprint } from "../fingerprint.ts";
import type { RegistryDataSource } from "../registry-data/registry-data-source.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import type { NewFiling } from "./new-filing.ts";
import type { Recorded } from "./record-submission.ts";
import { runSubmit, type HeldFiling } from "./run-submit.ts";

/** A submit RPC's request: who calls, the Idempotency-Key, the filing, the credentials sealed by the gateway. */
interface SealedSubmitRequest<Input> {
  caller: FilingRpcCaller;
  idempotency_key: string;
  filing: Input;
  credentials: SealedSecret;
}

/** One kind of live submit (CT600 or accounts): what differs between `filing.submit_ct600` and `filing.submit_accounts`. */
export interface SubmitKind<Input, Credentials extends z.ZodType, Response> {
  filingType: "ct600" | "accounts";
  /** The schema the opened credentials are checked against. */
  credentials: Credentials;
  authority: "tax" | "registry";
  /** Derives and validates the filing (no side effects). */
  plan(registry: RegistryDataSource, input: Input, now: Date): Promise<NewFiling>;
  /** Sends every submission not yet acknowledged, recording each acknowledgement. */
  send(deps: SubmitDeps, held: HeldFiling, credentials: z.output<Credentials>, requestId: string): Promise<Recorded>;
  /** The submit's answer, from the filing as stored. */
  respond(filing: FilingRecord): Response;
}

/**
 * A live submit: opens the gateway's sealed credentials in memory (bound to the caller's account
 * and Idempotency-Key, checked against the kind's schema), then runs the submit sequence
 * (run-submit.ts) with the kind's plan, send and answer.
 */
export function runSealedSubmit<Input, Credentials extends z.ZodType, Response>(
  deps: SubmitDeps,
  request: SealedSubmitRequest<Input>,
  kind: SubmitKind<Input, Credentials, Response>,
): Promise<Response> {
  const binding = credentialsBinding(request.caller.account_id, request.idempotency_key);
  const credentials = openSealedCredentials(request.credentials, deps.sealingKeys, binding, kind.credentials);
  return runSubmit(deps, {
    caller: request.caller,
    idempotencyKey: request.idempotency_key,
    fingerprint: submitFingerprint(kind.filingType, request.filing),
    authority: kind.authority,
    plan: () => kind.plan(deps.registry, request.filing, deps.now()),
    send: (held) => kind.send(deps, held, credentials, request.caller.request_id),
    respond: kind.respond,
  });
}
