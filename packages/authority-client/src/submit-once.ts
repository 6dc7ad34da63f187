import { AppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { AuthorityCallAbortedError, AuthorityRequestError, AuthorityUnavailableError } from "./errors.ts";
import { askAuthority, isAbandoned, type AuthorityLookup, type DoubtfulRecord } from "./resolve-in-doubt.ts";
import type { SubmissionLedger } from "./submission-ledger.ts";

/** A duplicate request met an attempt still in progress, or one whose fate at the authority is unknown. */
export class SubmissionBlockedError extends Error {
  constructor(
    readonly state: "in_progress" | "uncertain",
    message: string,
  ) {
    super(message);
    this.name = "SubmissionBlockedError";
  }
}

/**
 * Whether a failed submit may have left a submission at the authority: a classified refusal
 * (AppError), an HTTP 4xx and an unsent or refused request did not; a timeout after sending, a
 * broken connection, a call the caller gave up on, or anything unexpected may have.
 */
export function mayHaveReachedAuthority(error: unknown): boolean {
  if (error instanceof AuthorityUnavailableError || error instanceof AuthorityCallAbortedError) return error.maybeReceived;
  if (error instanceof AppError || error instanceof AuthorityRequestError) return false;
  return true;
}

export interface SubmitOnceOptions<R, A = undefined> {
  ledger: SubmissionLedger<R, A>;
  /** The submission's id, e.g. `fil_123:1`. */
  id: string;
  /** Sends the (already built) submission and returns what the RPC answers; throws when refused. */
  submit: () => Promise<R>;
  /**
   * Whether a failed attempt may have left a submission at the authority (then it is recorded
   * as uncertain and never repeated). Default mayHaveReachedAuthority; an authority that refuses
   * duplicates itself (the registry's submission numbers) can answer false: repeating is safe.
   */
  mayHaveReached?: (error: unknown) => boolean;
  /** What must follow an acknowledged submission (scheduling the first poll); may run again for a duplicate. */
  followUp: (response: R) => Promise<void>;
  /** How long a duplicate waits for an attempt in progress to finish before giving up. */
  waitMs: number;
  /**
   * Age after which an attempt still recorded as in progress was abandoned: its worker died in
   * the middle of it (kill -9, lost machine). Longer than an attempt can live: the authority
   * call's timeout plus scheduling the follow-up. Such an attempt may have reached the authority:
   * it becomes uncertain (never repeated), unless `mayHaveReached` says repeating is safe, in
   * which case this request takes it over and submits.
   */
  abandonedAfterMs: number;
  /** Kept with the claim: what `lookup` needs to ask the authority about this attempt later. */
  attempt?: A;
  /**
   * Asks the authority whether an attempt in doubt reached it (the tax authority's DATA_REQUEST,
   * the registry's GetSubmissionStatus). With it, a request meeting an attempt in doubt (uncertain,
   * or abandoned by a dead worker) asks, once `settleMs` passed: the authority has it → answered
   * as a duplicate, never sent again; it does not → submitted now. Without it such a request is
   * refused (SubmissionBlockedError "uncertain") or, when `mayHaveReached` says repeating is
   * safe, the abandoned attempt is taken over.
   */
  lookup?: AuthorityLookup<R, A>;
  /** With `lookup`: how long after an attempt ended in doubt the authority's "not there" is believed. */
  settleMs?: number;
  signal?: AbortSignal;
  logger: Logger;
}

export interface SubmitOnceResult<R> {
  response: R;
  /** True when this request found the submission already made and returned its record. */
  duplicate: boolean;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const abort = () => {
      clearTimeout(timer);
      resolve();
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/**
 * Submits at most once per id, whichever replica gets the request and however often it comes:
 * the first request claims the id and submits; a later one returns the recorded response (and
 * schedules the follow-up again if the first could not); one arriving while an attempt is in
 * progress waits for it (up to `waitMs`). An attempt that may have reached the authority
 * without an answer is recorded as uncertain and never repeated (SubmissionBlockedError); one
 * refused or never sent releases the id so it can be tried again.
 */
export async function submitOnce<R, A = undefined>(options: SubmitOnceOptions<R, A>): Promise<SubmitOnceResult<R>> {
  const { ledger, id, logger, signal } = options;
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const claim = await ledger.claim(id, options.attempt);
    if (claim.claimed) return { response: await attempt(options, claim.owner), duplicate: false };
    const { record } = claim;
    if (record.state === "submitted") {
      if (!record.follow_up_done) {
        await options.followUp(record.response);
        await ledger.markFollowUpDone(id);
      }
      logger.info({ submission: id }, "duplicate submit request: answering with the recorded submission");
      return { response: record.response, duplicate: true };
    }
    if (options.lookup && (record.state === "uncertain" || isAbandoned(record, options))) {
      const settled = await settleWithAuthority(options, options.lookup, record);
      if (settled === "again") continue;
      return settled;
    }
    if (record.state === "uncertain") {
      throw new SubmissionBlockedError(
        "uncertain",
        `an earlier attempt to submit this (${record.reason}) may have reached the authority without an answer; it is not sent again`,
      );
    }
    if (Date.now() - Date.parse(record.started_at) > options.abandonedAfterMs) {
      const retaken = await settleAbandoned(options, record.owner);
      if (retaken) return { response: await attempt(options, retaken), duplicate: false };
      continue;
    }
    if (Date.now() >= deadline || signal?.aborted) {
      throw new SubmissionBlockedError("in_progress", "another attempt to submit this is still in progress");
    }
    await sleep(100, signal);
  }
}

/**
 * A request met an attempt in doubt and the authority can be asked about it: it has it (answer
 * as a duplicate, after the follow-up), it does not (take the record over and submit now: the
 * first copy to reach it), or it cannot say yet (refused as in doubt: the caller keeps the
 * submission and asks again later). "again": the record changed meanwhile.
 */
async function settleWithAuthority<R, A>(
  options: SubmitOnceOptions<R, A>,
  lookup: AuthorityLookup<R, A>,
  record: DoubtfulRecord<R, A>,
): Promise<SubmitOnceResult<R> | "again"> {
  const { ledger, id, logger } = options;
  const outcome = await askAuthority(
    ledger,
    id,
    record,
    lookup,
    { abandonedAfterMs: options.abandonedAfterMs, settleMs: options.settleMs ?? 0 },
    options.signal,
  );
  switch (outcome.kind) {
    case "found":
      logger.warn({ submission: id }, "an attempt in doubt reached the authority (it says so): not submitting again");
      await options.followUp(outcome.response);
      await ledger.markFollowUpDone(id);
      return { response: outcome.response, duplicate: true };
    case "absent": {
      const owner = await ledger.takeOver(id, outcome.owner, options.attempt);
      if (!owner) return "again";
      logger.warn({ submission: id }, "an attempt in doubt never reached the authority (it says so): submitting it now");
      return { response: await attempt(options, owner), duplicate: false };
    }
    case "wait":
      throw new SubmissionBlockedError(
        "uncertain",
        `an earlier attempt to submit this may have reached the authority; ${outcome.reason}, so it is not sent again now`,
      );
    case "changed":
      return "again";
  }
}

/** The worker that stopped in the middle of an attempt, as an error for `mayHaveReached`. */
class AbandonedAttemptError extends Error {
  constructor(startedAt: string) {
    super(`the worker submitting this stopped in the middle of its attempt (started ${startedAt})`);
    this.name = "AbandonedAttemptError";
  }
}

/**
 * An attempt left in progress by a dead worker: marked uncertain when it may have reached the
 * authority (the loop then answers "uncertain"), else taken over (answers the new owner).
 * Answers undefined when another request got there first: the loop reads the record again.
 */
async function settleAbandoned<R, A>(options: SubmitOnceOptions<R, A>, abandonedOwner: string): Promise<string | undefined> {
  const { ledger, id, logger } = options;
  const record = await ledger.read(id);
  if (record?.state !== "in_progress" || record.owner !== abandonedOwner) return undefined;
  const abandoned = new AbandonedAttemptError(record.started_at);
  if ((options.mayHaveReached ?? mayHaveReachedAuthority)(abandoned)) {
    logger.warn(
      { submission: id },
      "an attempt abandoned in the middle (its worker stopped) may have reached the authority: not submitting it again",
    );
    await ledger.markUncertain(id, abandonedOwner, abandoned.message, record.attempt).catch(() => undefined);
    return undefined;
  }
  logger.warn({ submission: id }, "taking over an attempt abandoned in the middle (its worker stopped): repeating it is safe");
  return ledger.takeOver(id, abandonedOwner, options.attempt);
}

async function attempt<R, A>(options: SubmitOnceOptions<R, A>, owner: string): Promise<R> {
  const { ledger, id, logger } = options;
  let response: R;
  try {
    response = await options.submit();
  } catch (error) {
    const reached = (options.mayHaveReached ?? mayHaveReachedAuthority)(error);
    const settle = reached
      ? ledger.markUncertain(id, owner, error instanceof Error ? error.message : String(error), options.attempt)
      : ledger.release(id, owner);
    await settle.catch((ledgerError: unknown) => logger.error({ err: ledgerError, submission: id }, "could not record the failed attempt"));
    throw error;
  }
  try {
    await options.followUp(response);
  } catch (error) {
    await ledger
      .recordSubmitted(id, owner, response, false)
      .catch((ledgerError: unknown) => logger.error({ err: ledgerError, submission: id }, "could not record the submission"));
    throw error;
  }
  await ledger
    .recordSubmitted(id, owner, response, true)
    .catch((ledgerError: unknown) =>
      logger.error({ err: ledgerError, submission: id }, "could not record the submission; duplicates will wait and fail"),
    );
  return response;
}
