import type { DeliveryContext } from "@dormant/bus";
import { AppError, type ErrorCode } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { Counter } from "prom-client";
import type { CompletionLedger } from "./completion-ledger.ts";
import { AuthorityUnavailableError } from "./errors.ts";
import { lazyChildLogger } from "./lazy-child-logger.ts";
import { afterTransientPollFailure, breakerGraceMs, nextPoll, pollTimeoutMs, type NextPoll } from "./poll-timing.ts";

/** What every poll command carries: when polling stops, and which poll of the submission it is (1 for the first). */
export interface PollCommand {
  give_up_at: string;
  poll_number: number;
}

/** A final outcome as a worker publishes it: accepted, or ended with a filing error code. */
export type FinalOutcome = { outcome: "accepted" } | { outcome: "rejected" | "error"; error: { code: string } };

export interface PollUntilFinalOptions<C extends PollCommand> {
  /** Published final outcomes (a redelivered poll of a completed submission does nothing). */
  completions: CompletionLedger;
  /** The breaker's timeout: a poll's timeout is this, shortened near the give-up instant. */
  requestTimeoutMs: number;
  /** How long the breaker stays open before a trial: a poll it refused past the give-up instant waits for it (breakerGraceMs). */
  breakerResetTimeoutMs: number;
  /** The longest delay the poll queue can hold. */
  maxPollDelayMs: number;
  outcomes: Counter<"outcome" | "code">;
  logger: Logger;
  /** What the log lines call the submission ("part", "accounts"). */
  subject: string;
  /** The poll message's retries through the bus (its catalog entry's `retry`). */
  retry: { maxAttempts: number; backoffMs: readonly number[] };
  /** While the authority is unavailable: the code a poll retried by the bus fails with, its name and the warning logged. */
  unavailable: { code: ErrorCode; authority: string; warning: string };
  /** Publishes the next poll command (already numbered) after `delayMs`. */
  schedule(command: C, delayMs: number): Promise<unknown>;
  /** Ends the submission once the give-up instant passed (publishes its outcome, through `complete`). */
  giveUp(command: C, why: string, logger: Logger): Promise<void>;
}

/** One poll: which submission, how to ask the authority about it and what to do with the answer. */
export interface PollRound<A> {
  /** The submission's authority reference: the key of its completion record. */
  reference: string;
  /** What the poll's log lines are bound to (the poll number and the delivery attempt follow). */
  bindings: Record<string, unknown>;
  /** Asks the authority, with the delivery's signal and the poll's timeout. */
  ask(call: { signal: AbortSignal; timeoutMs: number }): Promise<A>;
  /** Acts on the authority's answer: `pollAgain` (no decision yet) or `complete` (final). */
  decide(answer: A, logger: Logger): Promise<void>;
  /**
   * Whether this poll still asks the authority about a submission already completed with
   * `outcome` (a late check of one that ended in `error`); default: never.
   */
  askAgainAfter?: (outcome: string) => boolean;
}

/**
 * The mechanism both workers' pollers share: poll a submission until the authority's answer is
 * final or the give-up instant (`give_up_at`) passed. A submission already completed (a
 * redelivered poll) is left alone; the authority's answer goes to the worker's `decide`; a
 * transient failure (AuthorityUnavailableError) is retried through the bus while attempts remain
 * before the give-up instant, else rescheduled, or, once that passed, the submission given up.
 * A refusal by the open breaker is not the authority's answer: past the give-up instant such a
 * poll waits for the breaker (within breakerGraceMs) and asks once more before giving up.
 */
export class PollUntilFinal<C extends PollCommand> {
  constructor(private readonly options: PollUntilFinalOptions<C>) {}

  async poll<A>(command: C, context: DeliveryContext, round: PollRound<A>): Promise<void> {
    const { options } = this;
    // Most polls log nothing at info (pending): the bound logger is made only if a line is written.
    const logger = lazyChildLogger(options.logger, { ...round.bindings, poll_number: command.poll_number, attempt: context.attempt });
    const completed = await options.completions.completedOutcome(round.reference);
    if (completed && !round.askAgainAfter?.(completed)) {
      logger.info({ outcome: completed }, `${options.subject} already completed: nothing to do for this poll`);
      return;
    }
    let answer: A;
    try {
      answer = await round.ask({ signal: context.signal, timeoutMs: pollTimeoutMs(command.give_up_at, options.requestTimeoutMs) });
    } catch (error) {
      if (error instanceof AuthorityUnavailableError) return this.afterTransientFailure(command, context, error, logger);
      throw error;
    }
    return round.decide(answer, logger);
  }

  /**
   * No decision yet: schedules `command` again `intervalSeconds` on (held to the give-up instant
   * and the queue's longest delay). Answers `give_up` once the give-up instant passed, scheduling
   * nothing: the caller ends the submission.
   */
  async pollAgain(command: C, intervalSeconds: number): Promise<NextPoll> {
    const next = nextPoll(intervalSeconds, command.give_up_at, this.options.maxPollDelayMs);
    if (next.kind === "poll_again") await this.schedule(command, next.delayMs);
    return next;
  }

  /**
   * Publishes a final outcome (`publish`), remembers the submission as completed and counts it;
   * answers the outcome's error code ("" for an acceptance) for the worker's log line.
   */
  async complete<O extends FinalOutcome>(reference: string, outcome: O, publish: (outcome: O) => Promise<unknown>): Promise<string> {
    await publish(outcome);
    await this.options.completions.markCompleted(reference, outcome.outcome);
    const code = outcomeCode(outcome);
    this.options.outcomes.inc({ outcome: outcome.outcome, code });
    return code;
  }

  private async afterTransientFailure(
    command: C,
    context: DeliveryContext,
    error: AuthorityUnavailableError,
    logger: Logger,
  ): Promise<void> {
    const { retry, maxPollDelayMs, unavailable, requestTimeoutMs, breakerResetTimeoutMs } = this.options;
    // Not sent (breaker open, throttled): the authority was not asked, so past the give-up instant it still is, within the grace.
    const notSent =
      error.reason === "breaker_open" || error.reason === "throttled"
        ? {
            retryAfterMs: (error.retryAfterSeconds ?? 1) * 1000,
            graceMs: breakerGraceMs({ resetTimeoutMs: breakerResetTimeoutMs, timeoutMs: requestTimeoutMs }),
          }
        : undefined;
    const next = afterTransientPollFailure({
      attempt: context.attempt,
      retry,
      giveUp: command.give_up_at,
      maxDelayMs: maxPollDelayMs,
      notSent,
    });
    logger.warn({ err: error, reason: error.reason, next: next.kind }, unavailable.warning);
    if (next.kind === "give_up") return this.options.giveUp(command, `${unavailable.authority} did not answer (${error.reason})`, logger);
    if (next.kind === "retry") throw new AppError(unavailable.code, error.message, { retryable: true, cause: error });
    await this.schedule(command, next.delayMs);
  }

  private async schedule(command: C, delayMs: number): Promise<void> {
    await this.options.schedule({ ...command, poll_number: command.poll_number + 1 }, delayMs);
  }
}

function outcomeCode(outcome: FinalOutcome): string {
  return outcome.outcome === "accepted" ? "" : outcome.error.code;
}
