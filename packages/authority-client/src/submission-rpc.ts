import { AppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { Counter } from "prom-client";
import type { BreakerSettings } from "./breaker-settings.ts";
import { giveUpAt, nextPoll } from "./poll-timing.ts";
import { resolveSubmission, type AuthorityLookup, type Resolution } from "./resolve-in-doubt.ts";
import type { SubmissionLedger } from "./submission-ledger.ts";
import { submitFailure, type SubmitFailureOptions } from "./submit-failure.ts";
import { submitOnce } from "./submit-once.ts";

export interface SubmissionRpcOptions<R, A> {
  config: { breaker: BreakerSettings; inDoubtSettleSeconds: number; pollGiveUpAfterSeconds: number };
  ledger: SubmissionLedger<R, A>;
  /** Submit RPCs answered, by result (acknowledged, duplicate, or the error code). */
  submissions: Counter<"result">;
  /** The longest delay the poll queue can hold. */
  maxPollDelayMs: number;
  /** What the log lines call the submission ("CT600 part", "accounts"). */
  subject: string;
  /** How a failed submit is answered (submitFailure; its default wait is the breaker's reset time). */
  failure: Omit<SubmitFailureOptions, "defaultRetryAfterSeconds">;
}

/** One submission the RPC is about: its id in the ledger, how to ask the authority about it and what follows its acknowledgement. */
export interface SubmissionCall<R, A> {
  id: string;
  lookup: AuthorityLookup<R, A>;
  /** Schedules the submission's first poll (scheduleFirstPoll). */
  followUp(response: R): Promise<void>;
  signal: AbortSignal;
}

/** A submit RPC's submission: the call, and what sending it takes. */
export interface SubmitCall<R, A> extends SubmissionCall<R, A> {
  /** Sends the built message: the RPC's answer, or the refusal it throws. */
  send(): Promise<R>;
  /** Kept with the claim, for `lookup` (none where the authority needs nothing). */
  attempt?: A;
  /** Fields of the response the success line adds. */
  logged?: (response: R) => Record<string, unknown>;
}

/** `*.resolve_*`'s answer: the resolution, with the wait in the RPC's own words. */
export type ResolutionAnswer<R> =
  | Exclude<Resolution<R>, { state: "in_doubt" }>
  | { state: "in_doubt"; reason: string; retry_after_seconds: number };

/** The first poll command's part that follows from the submission time. */
export interface FirstPoll {
  give_up_at: string;
  poll_number: 1;
}

/**
 * What both workers' submit and resolve RPCs do around their authority's own message: submit at
 * most once (submitOnce) or settle an attempt in doubt without sending (resolveSubmission), with
 * the timings that follow from the breaker and IN_DOUBT_SETTLE_SECONDS; count and log the result;
 * answer a failure as submitFailure says; schedule the first poll.
 */
export class SubmissionRpc<R, A = undefined> {
  constructor(private readonly options: SubmissionRpcOptions<R, A>) {}

  /** How long an attempt lives at most (the authority call, then publishing the first poll): older is a dead worker's. */
  private get abandonedAfterMs(): number {
    return this.options.config.breaker.timeoutMs + 15_000;
  }

  private get settleMs(): number {
    return this.options.config.inDoubtSettleSeconds * 1000;
  }

  /**
   * The submit RPC: `prepare` builds the message (a refusal to build is answered like any
   * failure), then it is sent at most once (an attempt in doubt is settled through `lookup` first).
   */
  async submit(logger: Logger, prepare: () => SubmitCall<R, A>): Promise<R> {
    const { options } = this;
    try {
      const call = prepare();
      const { response, duplicate } = await submitOnce<R, A>({
        ledger: options.ledger,
        id: call.id,
        logger,
        signal: call.signal,
        waitMs: options.config.breaker.timeoutMs + 2_000,
        abandonedAfterMs: this.abandonedAfterMs,
        ...(call.attempt === undefined ? {} : { attempt: call.attempt }),
        submit: call.send,
        lookup: call.lookup,
        settleMs: this.settleMs,
        followUp: call.followUp,
      });
      options.submissions.inc({ result: duplicate ? "duplicate" : "acknowledged" });
      logger.info({ ...call.logged?.(response), duplicate }, `${options.subject} submitted`);
      return response;
    } catch (error) {
      const defaultRetryAfterSeconds = Math.ceil(options.config.breaker.resetTimeoutMs / 1000);
      const { error: answer, kind } = submitFailure(error, { ...options.failure, defaultRetryAfterSeconds });
      options.submissions.inc({ result: answer.code.toLowerCase() });
      logger.warn({ err: error, code: answer.code, kind }, `${options.subject} not submitted`);
      throw answer;
    }
  }

  /** The resolve RPC: settles an attempt in doubt without ever sending (resolveSubmission). */
  async resolve(logger: Logger, call: SubmissionCall<R, A>): Promise<ResolutionAnswer<R>> {
    const resolution = await resolveSubmission({
      ledger: this.options.ledger,
      id: call.id,
      lookup: call.lookup,
      abandonedAfterMs: this.abandonedAfterMs,
      settleMs: this.settleMs,
      followUp: call.followUp,
      logger,
      signal: call.signal,
    });
    logger.info({ state: resolution.state }, `${this.options.subject} in doubt: resolution`);
    if (resolution.state === "in_doubt")
      return { state: "in_doubt", reason: resolution.reason, retry_after_seconds: resolution.retryAfterSeconds };
    return resolution;
  }

  /**
   * Publishes the first poll of a submission made at `submittedAt`, `intervalSeconds` on (held to
   * the give-up instant and the queue's longest delay). If that fails the submission stands but
   * nothing would poll it: `unscheduled` is logged and the caller answered with `message`
   * (SERVICE_UNAVAILABLE, retryable: a repeat finds the submission and schedules it again).
   */
  async scheduleFirstPoll(
    first: { submittedAt: string; intervalSeconds: number; publish(poll: FirstPoll, delayMs: number): Promise<unknown> },
    failed: { logger: Logger; fields?: Record<string, unknown>; unscheduled: string; message: string },
  ): Promise<void> {
    const giveUp = giveUpAt(new Date(first.submittedAt), this.options.config.pollGiveUpAfterSeconds);
    const next = nextPoll(first.intervalSeconds, giveUp, this.options.maxPollDelayMs);
    try {
      await first.publish({ give_up_at: giveUp, poll_number: 1 }, next.kind === "poll_again" ? next.delayMs : 0);
    } catch (error) {
      failed.logger.error({ err: error, ...failed.fields }, failed.unscheduled);
      throw new AppError("SERVICE_UNAVAILABLE", failed.message, { retryable: true, retryAfterSeconds: 5, cause: error });
    }
  }
}
