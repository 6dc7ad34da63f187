import type { Logger } from "@dormant/service-kit";
import type { SubmissionLedger, SubmissionRecord } from "./submission-ledger.ts";

/**
 * What the authority says about an attempt whose answer was lost: it has the submission (and
 * `response` is what the submit RPC would have answered: the correlation id it gave it, ...),
 * or it does not. Throws when the authority cannot be asked now (down, refused the question).
 */
export type AuthorityLookup<R, A> = (
  attempt: A | undefined,
  signal?: AbortSignal,
) => Promise<{ found: true; response: R } | { found: false }>;

export interface InDoubtTiming {
  /** Age after which an attempt still recorded as in progress was abandoned (its worker died). */
  abandonedAfterMs: number;
  /**
   * How long after an attempt ended in doubt (or was abandoned) before the authority's "I do not
   * have it" is believed: a request that left us may still be on its way or being processed
   * there, and a lookup made too early would not see it yet.
   */
  settleMs: number;
}

/** A record whose attempt may have reached the authority without its answer reaching us. */
export type DoubtfulRecord<R, A> = Extract<SubmissionRecord<R, A>, { state: "uncertain" | "in_progress" }>;

/** What asking the authority about a doubtful attempt came to. */
export type DoubtOutcome<R> =
  /** The authority has it: the record now says `submitted` (follow-up not yet done). */
  | { kind: "found"; response: R }
  /** The authority does not have it, and nothing of the attempt can still arrive: `owner` still holds the record. */
  | { kind: "absent"; owner: string }
  /** Too early to trust a "not there" (or nobody can say now): ask again after `retryAfterMs`. */
  | { kind: "wait"; retryAfterMs: number; reason: string }
  /** The record changed while we asked (another replica settled it): read it again. */
  | { kind: "changed" };

/** Whether an in-progress record's attempt was abandoned by a worker that died in the middle of it. */
export function isAbandoned<R, A>(
  record: SubmissionRecord<R, A>,
  timing: Pick<InDoubtTiming, "abandonedAfterMs">,
  now = Date.now(),
): boolean {
  return record.state === "in_progress" && now - Date.parse(record.started_at) > timing.abandonedAfterMs;
}

/** The instant after which the authority's word about a doubtful attempt is final. */
export function settledAt<R, A>(record: DoubtfulRecord<R, A>, timing: InDoubtTiming): number {
  return record.state === "uncertain"
    ? Date.parse(record.since) + timing.settleMs
    : Date.parse(record.started_at) + timing.abandonedAfterMs + timing.settleMs;
}

/**
 * Asks the authority (`lookup`) about a doubtful attempt, once its word can be trusted. When the
 * authority has it, the record becomes `submitted` with the response it implies, written only if
 * it still names the doubtful attempt's owner (compare-and-set): two replicas asking at once
 * record it once. A lookup that fails is a `wait`: the submission stays in doubt.
 */
export async function askAuthority<R, A>(
  ledger: SubmissionLedger<R, A>,
  id: string,
  record: DoubtfulRecord<R, A>,
  lookup: AuthorityLookup<R, A>,
  timing: InDoubtTiming,
  signal?: AbortSignal,
): Promise<DoubtOutcome<R>> {
  const wait = settledAt(record, timing) - Date.now();
  if (wait > 0) return { kind: "wait", retryAfterMs: wait, reason: "an attempt to submit it may still be reaching the authority" };
  let answer: Awaited<ReturnType<AuthorityLookup<R, A>>>;
  try {
    answer = await lookup(record.attempt, signal);
  } catch (error) {
    return {
      kind: "wait",
      retryAfterMs: timing.settleMs,
      reason: `the authority could not be asked whether it has it (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!answer.found) return { kind: "absent", owner: record.owner };
  try {
    await ledger.recordSubmitted(id, record.owner, answer.response, false);
  } catch {
    return { kind: "changed" };
  }
  return { kind: "found", response: answer.response };
}

/** What became of a submission the filing service holds no acknowledgement for. */
export type Resolution<R> =
  | { state: "acknowledged"; response: R }
  | { state: "not_submitted"; reason: string }
  | { state: "in_doubt"; reason: string; retryAfterSeconds: number };

export interface ResolveSubmissionOptions<R, A> extends InDoubtTiming {
  ledger: SubmissionLedger<R, A>;
  id: string;
  lookup: AuthorityLookup<R, A>;
  /** What must follow an acknowledged submission (scheduling its first poll), if not done yet. */
  followUp: (response: R) => Promise<void>;
  logger: Logger;
  signal?: AbortSignal;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Settles a submission in doubt without ever sending it (the filing service's sweeper asks, for a
 * filing left pending): from the record every replica shares, and when that says the attempt's
 * fate is unknown, from the authority itself.
 * - acknowledged: submitted (recorded, or the authority has it): its polls are scheduled;
 * - not_submitted: no attempt was ever claimed (the claim is written before anything is sent),
 *   or the authority, asked once nothing could still arrive, does not have it; the record is
 *   released, so nothing stops a later explicit submit;
 * - in_doubt: an attempt is still running, it is too early to believe a "not there", or the
 *   authority could not be asked: ask again later.
 */
export async function resolveSubmission<R, A>(options: ResolveSubmissionOptions<R, A>): Promise<Resolution<R>> {
  const { ledger, id, logger } = options;
  for (let reads = 0; reads < 3; reads += 1) {
    const record = await ledger.read(id);
    if (!record) return { state: "not_submitted", reason: "no attempt to submit it was ever made" };
    if (record.state === "submitted") {
      if (!record.follow_up_done) {
        await options.followUp(record.response);
        await ledger.markFollowUpDone(id);
      }
      return { state: "acknowledged", response: record.response };
    }
    if (record.state === "in_progress" && !isAbandoned(record, options)) {
      return {
        state: "in_doubt",
        reason: "an attempt to submit it is in progress",
        retryAfterSeconds: seconds(Date.parse(record.started_at) + options.abandonedAfterMs - Date.now()),
      };
    }
    const outcome = await askAuthority(ledger, id, record, options.lookup, options, options.signal);
    if (outcome.kind === "found") {
      logger.warn({ submission: id }, "in doubt, resolved: the authority has the submission; polling it");
      await options.followUp(outcome.response);
      await ledger.markFollowUpDone(id);
      return { state: "acknowledged", response: outcome.response };
    }
    if (outcome.kind === "absent") {
      if (!(await ledger.release(id, outcome.owner))) continue;
      logger.warn({ submission: id }, "in doubt, resolved: the authority does not have the submission");
      return { state: "not_submitted", reason: "the authority, asked after the attempt, does not have it" };
    }
    if (outcome.kind === "wait") return { state: "in_doubt", reason: outcome.reason, retryAfterSeconds: seconds(outcome.retryAfterMs) };
  }
  return { state: "in_doubt", reason: "its record kept changing while it was resolved", retryAfterSeconds: 5 };
}
