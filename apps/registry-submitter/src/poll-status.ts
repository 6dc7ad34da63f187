import {
  afterTransientPollFailure,
  AuthorityUnavailableError,
  backoffIntervalSeconds,
  lazyChildLogger,
  nextPoll,
  pollTimeoutMs,
  type CompletionLedger,
  type PollBackoff,
} from "@dormant/authority-client";
import type { DeliveryContext, PayloadInput } from "@dormant/bus";
import { AppError, PLATFORM_MESSAGE_CATALOG, type PollRegistryStatusCommand } from "@dormant/contracts";
import type { RegistrySubmissionStatus } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { Counter } from "prom-client";
import type { RegistryBus } from "./registry-bus.ts";
import type { RegistryGateway } from "./registry-gateway.ts";
import { registryErrorOutcome, registryHorizonOutcome, registryRefusalOutcome } from "./registry-status-outcome.ts";

type Outcome = PayloadInput<typeof PLATFORM_MESSAGE_CATALOG, "registry.outcome">;
type ReportedStatus = NonNullable<PollRegistryStatusCommand["reported_status"]>;

const POLL_RETRY = PLATFORM_MESSAGE_CATALOG["registry.poll_status"].retry;

export interface StatusPollerDeps {
  gateway: RegistryGateway;
  completions: CompletionLedger;
  bus: RegistryBus;
  requestTimeoutMs: number;
  maxPollDelayMs: number;
  /** How the waits between polls grow while the registry has not decided (the first wait is the command's poll_interval_seconds). */
  backoff: Pick<PollBackoff, "factor" | "maxSeconds">;
  outcomes: Counter<"outcome" | "code">;
  logger: Logger;
}

/**
 * `registry.poll_status`: asks the registry for the submission's status and publishes the final
 * outcome (ACCEPT, REJECT, INTERNAL_FAILURE), or schedules the next poll, each wait longer than
 * the one before up to the cap (PENDING, PARKED, an unknown code, or a submission the registry
 * does not list yet). A PENDING or PARKED that differs from the status reported last is reported
 * to the filing service (`registry.status`). A submission already completed (redelivered poll) is
 * left alone; transient failures are retried until `give_up_at`, the polling horizon, when the
 * accounts end in `error`: REGISTRY_NO_DECISION if the registry held them undecided, else
 * GATEWAY_TIMEOUT (registryHorizonOutcome).
 */
export class StatusPoller {
  constructor(private readonly deps: StatusPollerDeps) {}

  async poll(command: PollRegistryStatusCommand, context: DeliveryContext): Promise<void> {
    const { deps } = this;
    // Most polls log nothing at info (pending): the bound logger is made only if a line is written.
    const logger = lazyChildLogger(deps.logger, {
      filing_id: command.filing_id,
      submission_number: command.submission_number,
      poll_number: command.poll_number,
      attempt: context.attempt,
    });
    const completed = await deps.completions.completedOutcome(command.submission_number);
    if (completed) {
      logger.info({ outcome: completed }, "accounts already completed: nothing to do for this poll");
      return;
    }
    let answer;
    try {
      answer = await deps.gateway.status(command.submission_number, {
        signal: context.signal,
        timeoutMs: pollTimeoutMs(command.give_up_at, deps.requestTimeoutMs),
      });
    } catch (error) {
      if (error instanceof AuthorityUnavailableError) return this.afterTransientFailure(command, context, error, logger);
      throw error;
    }
    const base = { filing_id: command.filing_id, submission_number: command.submission_number };
    if (answer.type === "error") return this.finish({ ...base, ...registryRefusalOutcome(answer) }, logger);
    const status = answer.statuses.find((candidate) => candidate.submissionNumber === command.submission_number);
    switch (status?.outcome) {
      case "accepted":
        return this.finish({ ...base, outcome: "accepted", registry_status: status.statusCode, decided_at: new Date().toISOString() }, logger);
      case "rejected":
      case "error":
        return this.finish({ ...base, ...registryErrorOutcome(status) }, logger);
      case "unknown":
        logger.warn({ status_code: status.statusCode }, "the registry answered a status code this worker does not know: polling again");
        return this.stillPending(command, true, logger);
      case "pending":
        // PENDING or PARKED: the registry holds the accounts undecided.
        return this.stillPending(await this.reportIfChanged(command, status), true, logger);
      default:
        // Not listed (yet).
        return this.stillPending(command, false, logger);
    }
  }

  /**
   * Reports PENDING / PARKED to the filing service when it differs (code or examiner comment)
   * from the status reported last, and returns the command carrying what was reported, so the
   * next poll compares with it. Published before the next poll is scheduled: if scheduling fails,
   * the redelivered poll reports again, which the filing service takes as no change.
   */
  private async reportIfChanged(command: PollRegistryStatusCommand, status: RegistrySubmissionStatus): Promise<PollRegistryStatusCommand> {
    const code = status.statusCode === "PARKED" ? "PARKED" : "PENDING";
    const comment = status.examiner?.comment?.trim() || undefined;
    const last = command.reported_status;
    if (last?.code === code && last.examiner_comment === comment) return command;
    const polledAt = new Date().toISOString();
    await this.deps.bus.publish("registry.status", {
      filing_id: command.filing_id,
      submission_number: command.submission_number,
      registry_status: code,
      ...(comment ? { examiner_comment: comment } : {}),
      polled_at: polledAt,
    });
    const reported: ReportedStatus = { code, since: last?.code === code ? last.since : polledAt, ...(comment ? { examiner_comment: comment } : {}) };
    return { ...command, reported_status: reported };
  }

  /** No decision yet: the next poll after a longer wait, or the horizon's outcome once it passed. */
  private async stillPending(command: PollRegistryStatusCommand, heldUndecided: boolean, logger: Logger): Promise<void> {
    const { backoff, maxPollDelayMs } = this.deps;
    const waitSeconds = backoffIntervalSeconds({ ...backoff, initialSeconds: command.poll_interval_seconds }, command.poll_number);
    const next = nextPoll(waitSeconds, command.give_up_at, maxPollDelayMs);
    if (next.kind === "give_up") return this.giveUp(command, "the registry had no final status", logger, heldUndecided);
    await this.schedule(command, next.delayMs);
  }

  private async afterTransientFailure(command: PollRegistryStatusCommand, context: DeliveryContext, error: AuthorityUnavailableError, logger: Logger): Promise<void> {
    const next = afterTransientPollFailure({ attempt: context.attempt, retry: POLL_RETRY, giveUp: command.give_up_at, maxDelayMs: this.deps.maxPollDelayMs });
    logger.warn({ err: error, reason: error.reason, next: next.kind }, "status poll failed: the registry is unavailable");
    if (next.kind === "give_up") return this.giveUp(command, `the registry did not answer (${error.reason})`, logger);
    if (next.kind === "retry") throw new AppError("REGISTRY_UNAVAILABLE", error.message, { retryable: true, cause: error });
    await this.schedule(command, next.delayMs);
  }

  private giveUp(command: PollRegistryStatusCommand, why: string, logger: Logger, heldUndecided = false): Promise<void> {
    return this.finish({ filing_id: command.filing_id, submission_number: command.submission_number, ...registryHorizonOutcome(command, why, heldUndecided) }, logger);
  }

  private async schedule(command: PollRegistryStatusCommand, delayMs: number): Promise<void> {
    await this.deps.bus.publish("registry.poll_status", { ...command, poll_number: command.poll_number + 1 }, { delayMs });
  }

  /** Publishes the final outcome and remembers the submission as completed. */
  private async finish(outcome: Outcome, logger: Logger): Promise<void> {
    await this.deps.bus.publish("registry.outcome", outcome);
    await this.deps.completions.markCompleted(outcome.submission_number, outcome.outcome);
    const code = outcome.outcome === "accepted" ? "" : outcome.error.code;
    this.deps.outcomes.inc({ outcome: outcome.outcome, code });
    logger.info({ outcome: outcome.outcome, registry_status: outcome.registry_status, code }, "accounts outcome published");
  }
}
