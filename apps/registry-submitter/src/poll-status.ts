import { afterTransientPollFailure, AuthorityUnavailableError, lazyChildLogger, nextPoll, pollTimeoutMs, type CompletionLedger } from "@dormant/authority-client";
import type { DeliveryContext, PayloadInput } from "@dormant/bus";
import { AppError, PLATFORM_MESSAGE_CATALOG, type PollRegistryStatusCommand } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { Counter } from "prom-client";
import type { RegistryBus } from "./registry-bus.ts";
import type { RegistryGateway } from "./registry-gateway.ts";
import { registryErrorOutcome, registryRefusalOutcome } from "./registry-status-outcome.ts";

type Outcome = PayloadInput<typeof PLATFORM_MESSAGE_CATALOG, "registry.outcome">;

const POLL_RETRY = PLATFORM_MESSAGE_CATALOG["registry.poll_status"].retry;

export interface StatusPollerDeps {
  gateway: RegistryGateway;
  completions: CompletionLedger;
  bus: RegistryBus;
  requestTimeoutMs: number;
  maxPollDelayMs: number;
  outcomes: Counter<"outcome" | "code">;
  logger: Logger;
}

/**
 * `registry.poll_status`: asks the registry for the submission's status and publishes the final
 * outcome (ACCEPT, REJECT, INTERNAL_FAILURE), or schedules the next poll (PENDING, PARKED, an
 * unknown code, or a submission the registry does not list yet). A submission already completed
 * (redelivered poll) is left alone; transient failures are retried until `give_up_at`, when the
 * accounts end in `error` GATEWAY_TIMEOUT.
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
        return this.stillPending(command, logger);
      default:
        // PENDING, PARKED, or not listed yet.
        return this.stillPending(command, logger);
    }
  }

  private async stillPending(command: PollRegistryStatusCommand, logger: Logger): Promise<void> {
    const next = nextPoll(command.poll_interval_seconds, command.give_up_at, this.deps.maxPollDelayMs);
    if (next.kind === "give_up") return this.giveUp(command, "the registry had no final status", logger);
    await this.schedule(command, next.delayMs);
  }

  private async afterTransientFailure(command: PollRegistryStatusCommand, context: DeliveryContext, error: AuthorityUnavailableError, logger: Logger): Promise<void> {
    const next = afterTransientPollFailure({ attempt: context.attempt, retry: POLL_RETRY, giveUp: command.give_up_at, maxDelayMs: this.deps.maxPollDelayMs });
    logger.warn({ err: error, reason: error.reason, next: next.kind }, "status poll failed: the registry is unavailable");
    if (next.kind === "give_up") return this.giveUp(command, `the registry did not answer (${error.reason})`, logger);
    if (next.kind === "retry") throw new AppError("REGISTRY_UNAVAILABLE", error.message, { retryable: true, cause: error });
    await this.schedule(command, next.delayMs);
  }

  private giveUp(command: PollRegistryStatusCommand, why: string, logger: Logger): Promise<void> {
    return this.finish(
      {
        filing_id: command.filing_id,
        submission_number: command.submission_number,
        outcome: "error",
        registry_status: "TIMEOUT",
        error: { code: "GATEWAY_TIMEOUT", message: `The registry did not give a final status by ${command.give_up_at} (${why}).` },
        rejections: [],
      },
      logger,
    );
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
