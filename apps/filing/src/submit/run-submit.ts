import { randomUUID } from "node:crypto";
import { AppError, FILING_FEE_PENCE, type FilingRpcCaller, inDoubtDetail, inDoubtError } from "@dormant/contracts";
import type { SubmitDeps } from "./submit-deps.ts";
import { abandonFiling } from "./abandon.ts";
import type { Ct600Accounts } from "./accounts-for-ct600.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { findOrClaim, holdInDoubt, keepClaimFor, releaseClaim } from "./claim.ts";
import { classifyHoldFailure, classifySubmitterFailure, type CallFailure } from "./failures.ts";
import { holdFee, releaseFeeQuietly } from "./hold-fee.ts";
import type { NewFiling } from "./new-filing.ts";
import { createPendingFiling } from "./pending-filing.ts";
import type { Recorded } from "./record-submission.ts";

/** The filing a submit works on: as created by this request (with its plan), or as claimed to resume it. */
export interface HeldFiling {
  filing: FilingRecord;
  /** This request's claim token (the last acknowledgement drops the claim with it). */
  token: string;
  /** The plan the filing was just created from (absent when resuming a filing created earlier). */
  plan?: NewFiling;
  /**
   * A CT600 just created: the accounts its returns attach, as the creating statement found them
   * (null: none). Absent when resuming: the parts' stored requests refer to them.
   */
  ct600Accounts?: Ct600Accounts | null;
}

/** One kind of submit (CT600 or accounts): how to plan it, send it and answer it. */
export interface SubmitFlow<Response> {
  caller: FilingRpcCaller;
  idempotencyKey: string;
  fingerprint: string;
  authority: "tax" | "registry";
  /** Derives and validates the filing (no side effects). */
  plan(): Promise<NewFiling>;
  /**
   * Sends every submission not yet acknowledged, recording each acknowledgement; returns the
   * filing as the last record left it.
   */
  send(held: HeldFiling): Promise<Recorded>;
  /** The submit's answer, from the filing as stored. */
  respond(filing: FilingRecord): Response;
}

/** Finding, creating or resuming can race with other requests under the same key; this bounds the retries. */
const MAX_ROUNDS = 3;
/**
 * After a call whose effect is unknown (no reply in time), how long the filing stays claimed:
 * longer than the submitter can still be working on that call (its RPC deadline), so that a
 * quick retry waits instead of calling again while the first attempt is in flight.
 */
const UNKNOWN_OUTCOME_GRACE_SECONDS = 30;

type Found =
  | { kind: "done"; filing: FilingRecord }
  | { kind: "in_doubt"; filing: FilingRecord; retryAfterSeconds: number }
  | ({ kind: "claimed" } & HeldFiling);

/** The filing this request answers from or works on: existing, or created now. */
async function claimOrCreate<R>(deps: SubmitDeps, flow: SubmitFlow<R>, token: string): Promise<Found> {
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
    if (existing.kind === "done" || existing.kind === "in_doubt") return existing;
    if (existing.kind === "claimed") return { kind: "claimed", filing: existing.filing, token };
    const plan = await flow.plan();
    const created = await createPendingFiling(deps.db, plan, {
      accountId: flow.caller.account_id,
      keyId: flow.caller.key_id,
      idempotencyKey: flow.idempotencyKey,
      fingerprint: flow.fingerprint,
      requestId: flow.caller.request_id,
      feePence: FILING_FEE_PENCE,
      claimToken: token,
      claimSeconds: deps.claimSeconds,
    });
    if (created !== "exists") return { kind: "claimed", filing: created.filing, token, plan, ct600Accounts: created.ct600Accounts };
  }
  throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry shortly", {
    retryAfterSeconds: 2,
  });
}

/** How a request gives its claim back: at once, kept a while, or kept a while marked in doubt. */
type ClaimRelease = { keepSeconds: 0 } | { keepSeconds: number; inDoubt: boolean };

/** A claim that cannot be released or shortened (database gone) simply expires. */
async function releaseClaimQuietly(
  deps: SubmitDeps,
  filingId: string,
  token: string,
  how: ClaimRelease = { keepSeconds: 0 },
): Promise<void> {
  const done =
    how.keepSeconds <= 0
      ? releaseClaim(deps.db, filingId, token)
      : "inDoubt" in how && how.inDoubt
        ? holdInDoubt(deps.db, filingId, token, how.keepSeconds)
        : keepClaimFor(deps.db, filingId, token, how.keepSeconds);
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
 *    part, so resending after a crash is safe) and its acknowledgement recorded (the last one
 *    also drops this request's claim);
 * 5. the answer is built from the filing as that record wrote it (no read: the same bytes a
 *    repeated submit gets from reading it).
 * A failure before any submission reached an authority removes the filing (and releases the
 * hold): the caller gets the error and a retry starts afresh. A failure whose effect is unknown,
 * after a submission was acknowledged, or on a filing an earlier request created (whose attempt
 * may be at the authority) leaves the filing pending for a retry (or the sweeper): the submit is
 * in doubt, and its answer names the filing (`inDoubtError`: 502 with `details` `filing_id`). A
 * retry while the filing is held after such an attempt gets the same answer at once; after that a
 * retry resumes it (the submitters settle the attempt with the authority, never sending it twice)
 * or, once settled, answers 202 with it (README "When an answer is lost").
 */
export async function runSubmit<R>(deps: SubmitDeps, flow: SubmitFlow<R>): Promise<R> {
  if (flow.caller.mode !== "live")
    throw new AppError("INTERNAL_ERROR", "Submits with test keys are answered by the gateway's sandbox", { retryable: false });
  const token = randomUUID();
  const found = await claimOrCreate(deps, flow, token);
  if (found.kind === "done") return flow.respond(found.filing);
  if (found.kind === "in_doubt") throw inDoubtError(flow.authority, found.filing.id, { retryAfterSeconds: found.retryAfterSeconds });
  const held: HeldFiling = found;
  const filingId = held.filing.id;

  const fail = async (stage: "hold" | "submit", failure: CallFailure): Promise<never> => {
    // A filing this request did not create (held.plan absent) may carry an earlier request's
    // attempt whose fate is unknown (it got no answer in time, or its process died mid-send).
    // Only a submitter's own answer speaks for that attempt too; a failed hold, or the bus saying
    // that nobody serves the submit queue right now, does not: that filing stays pending, for a
    // retry or the sweeper (which asks the authority), and is never replaced by a new one.
    const earlierAttemptsSettled = held.plan !== undefined || (stage === "submit" && failure.coversEarlierAttempts);
    const nothingReachedAnAuthority = earlierAttemptsSettled && (stage === "hold" || failure.certainty === "not-done");
    const holdMayExist = stage === "submit" || failure.certainty === "unknown";
    const removed = nothingReachedAnAuthority
      ? await abandonFiling(deps.db, held.filing, { error: failure.filingError, requestId: flow.caller.request_id, announce: holdMayExist })
      : false;
    deps.logger.warn(
      {
        filing_id: filingId,
        stage,
        certainty: failure.certainty,
        code: failure.publicError.code,
        removed,
        err: failure.publicError.cause ?? failure.publicError,
      },
      removed ? "submit failed before reaching an authority; filing removed" : "submit failed; filing kept pending for a retry",
    );
    if (removed) {
      deps.wakeRelay();
      if (holdMayExist) await releaseFeeQuietly(deps, filingId, `submit failed: ${failure.publicError.code}`);
      throw failure.publicError;
    }
    const keepSeconds = failure.certainty === "unknown" ? UNKNOWN_OUTCOME_GRACE_SECONDS : 0;
    // In doubt: what this call or an earlier attempt did is not known. Otherwise (a refusal of
    // one part after another was acknowledged) the refusal is the answer, as before.
    const inDoubt = failure.certainty === "unknown" || !earlierAttemptsSettled;
    await releaseClaimQuietly(deps, filingId, token, { keepSeconds, inDoubt: inDoubt && stage === "submit" });
    if (!inDoubt) throw failure.publicError;
    throw inDoubtAnswer(flow.authority, filingId, stage, failure.publicError, keepSeconds);
  };

  try {
    await holdFee(deps, filingId, flow.caller.account_id);
  } catch (error) {
    return fail("hold", classifyHoldFailure(error));
  }
  let sent: Recorded;
  try {
    sent = await flow.send(held);
  } catch (error) {
    return fail("submit", classifySubmitterFailure(error, flow.authority));
  }
  // Normally the last acknowledgement dropped the claim (and a final status drops it too); it is
  // left when there was nothing to send (a resumed filing acknowledged before).
  if (sent.filing.claimToken === token) await releaseClaimQuietly(deps, filingId, token);
  if (sent.eventWritten) deps.wakeRelay();
  return flow.respond(sent.filing);
}

/**
 * The answer to a submit whose filing stays pending (its fate is not known yet): a submission in
 * doubt is the authority's 502 naming the filing, with a Retry-After no sooner than the filing
 * is held; a failed hold on a filing kept for an earlier attempt keeps its error, naming the filing.
 */
function inDoubtAnswer(
  authority: "tax" | "registry",
  filingId: string,
  stage: "hold" | "submit",
  error: AppError,
  heldSeconds: number,
): AppError {
  if (stage === "submit") {
    return inDoubtError(authority, filingId, { retryAfterSeconds: Math.max(error.retryAfterSeconds ?? 1, heldSeconds, 1), cause: error });
  }
  return new AppError(error.code, error.message, {
    details: [...(error.details ?? []), inDoubtDetail(filingId)],
    retryable: error.retryable,
    ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    cause: error,
  });
}
