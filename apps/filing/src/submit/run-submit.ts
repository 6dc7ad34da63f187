import { randomUUID } from "node:crypto";
import { AppError, FILING_FEE_PENCE, type FilingRpcCaller } from "@dormant/contracts";
import type { SubmitDeps } from "../deps.ts";
import { abandonFiling } from "./abandon.ts";
import { findOrClaim, keepClaimFor, releaseClaim, type ExistingFiling } from "./claim.ts";
import { classifyHoldFailure, classifySubmitterFailure, type CallFailure } from "./failures.ts";
import { holdFee, releaseFeeQuietly } from "./hold-fee.ts";
import type { NewFiling } from "./new-filing.ts";
import { insertPendingFiling } from "./pending-filing.ts";

/** One kind of submit (CT600 or accounts): how to plan it, send it and answer it. */
export interface SubmitFlow<Response> {
  caller: FilingRpcCaller;
  idempotencyKey: string;
  fingerprint: string;
  authority: "tax" | "registry";
  /** Derives and validates the filing (no side effects). */
  plan(): Promise<NewFiling>;
  /** Sends every submission not yet acknowledged, recording each acknowledgement. */
  send(filingId: string): Promise<void>;
  /** The submit's answer, from the filing as stored. */
  respond(filingId: string): Promise<Response>;
}

/** Finding, creating or resuming can race with other requests under the same key; this bounds the retries. */
const MAX_ROUNDS = 3;
/**
 * After a call whose effect is unknown (no reply in time), how long the filing stays claimed:
 * longer than the submitter can still be working on that call (its RPC deadline), so that a
 * quick retry waits instead of calling again while the first attempt is in flight.
 */
const UNKNOWN_OUTCOME_GRACE_SECONDS = 30;

/** The filing this request answers from or works on: existing, or created now. */
async function claimOrCreate<R>(deps: SubmitDeps, flow: SubmitFlow<R>, token: string): Promise<Exclude<ExistingFiling, { kind: "none" }>> {
  const claim = {
    keyId: flow.caller.key_id,
    idempotencyKey: flow.idempotencyKey,
    fingerprint: flow.fingerprint,
    token,
    claimSeconds: deps.claimSeconds,
    waitMs: deps.claimWaitMs,
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const existing = await findOrClaim(deps.db, claim);
    if (existing.kind !== "none") return existing;
    const filing = await flow.plan();
    const created = await insertPendingFiling(deps.db, filing, {
      accountId: flow.caller.account_id,
      keyId: flow.caller.key_id,
      idempotencyKey: flow.idempotencyKey,
      fingerprint: flow.fingerprint,
      requestId: flow.caller.request_id,
      feePence: FILING_FEE_PENCE,
      claimToken: token,
      claimSeconds: deps.claimSeconds,
    });
    if (created === "created") return { kind: "claimed", filingId: filing.id };
  }
  throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry shortly", { retryAfterSeconds: 2 });
}

/** A claim that cannot be released or shortened (database gone) simply expires. */
async function releaseClaimQuietly(deps: SubmitDeps, filingId: string, token: string, keepSeconds = 0): Promise<void> {
  const done = keepSeconds > 0 ? keepClaimFor(deps.db, filingId, token, keepSeconds) : releaseClaim(deps.db, filingId, token);
  await done.catch((error: unknown) => deps.logger.warn({ err: error, filing_id: filingId }, "could not release a submit claim"));
}

/**
 * The live submit, for both filing types (README "Submit sequence"):
 * 1. the idempotency backstop: the filing under this API key and Idempotency-Key answers (or is
 *    resumed when still pending); another body is 409;
 * 2. otherwise the filing is planned (registry data, overrides, business rules) and written
 *    `pending`, claimed by this request;
 * 3. the fee is held (billing.hold, idempotent per filing);
 * 4. each submission not yet acknowledged is sent (the submitters deduplicate per filing and
 *    part, so resending after a crash is safe) and its acknowledgement recorded;
 * 5. the answer is built from the stored filing.
 * A failure before any submission reached an authority removes the filing (and releases the
 * hold): the caller gets the error and a retry starts afresh. A failure whose effect is unknown,
 * or after a submission was acknowledged, leaves the filing pending for a retry (or the sweeper).
 */
export async function runSubmit<R>(deps: SubmitDeps, flow: SubmitFlow<R>): Promise<R> {
  if (flow.caller.mode !== "live") throw new AppError("INTERNAL_ERROR", "Submits with test keys are answered by the gateway's sandbox", { retryable: false });
  const token = randomUUID();
  const filing = await claimOrCreate(deps, flow, token);
  if (filing.kind === "done") return flow.respond(filing.filingId);
  const { filingId } = filing;

  const fail = async (stage: "hold" | "submit", failure: CallFailure): Promise<never> => {
    const nothingReachedAnAuthority = stage === "hold" || failure.certainty === "not-done";
    const holdMayExist = stage === "submit" || failure.certainty === "unknown";
    const removed = nothingReachedAnAuthority
      ? await abandonFiling(deps.db, filingId, { error: failure.filingError, requestId: flow.caller.request_id, announce: holdMayExist })
      : false;
    deps.logger.warn(
      { filing_id: filingId, stage, certainty: failure.certainty, code: failure.publicError.code, removed, err: failure.publicError.cause ?? failure.publicError },
      removed ? "submit failed before reaching an authority; filing removed" : "submit failed; filing kept pending for a retry",
    );
    if (removed) {
      deps.wakeRelay();
      if (holdMayExist) await releaseFeeQuietly(deps, filingId, `submit failed: ${failure.publicError.code}`);
    } else {
      await releaseClaimQuietly(deps, filingId, token, failure.certainty === "unknown" ? UNKNOWN_OUTCOME_GRACE_SECONDS : 0);
    }
    throw failure.publicError;
  };

  try {
    await holdFee(deps, filingId, flow.caller.account_id);
  } catch (error) {
    return fail("hold", classifyHoldFailure(error));
  }
  try {
    await flow.send(filingId);
  } catch (error) {
    return fail("submit", classifySubmitterFailure(error, flow.authority));
  }
  await releaseClaimQuietly(deps, filingId, token);
  deps.wakeRelay();
  return flow.respond(filingId);
}
