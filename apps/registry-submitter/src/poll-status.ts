import { backoffIntervalSeconds, PollUntilFinal, type PollBackoff, type SubmitterPollingParts } from "@dormant/authority-client";
import type { DeliveryContext, PayloadInput } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, type PollRegistryStatusCommand } from "@dormant/contracts";
import type { RegistrySubmissionStatus } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { RegistryGateway, StatusAnswer } from "./registry-gateway.ts";
import { registryErrorOutcome, registryHorizonOutcome, registryRefusalOutcome } from "./registry-status-outcome.ts";

/** When the registry acknowledged the accounts, for the messages to the filing service (absent on older commands). */
function submittedAtOf(command: PollRegistryStatusCommand): { submitted_at?: string } {
  return command.submitted_at ? { submitted_at: command.submitted_at } : {};
}

type Outcome = PayloadInput<typeof PLATFORM_MESSAGE_CATALOG, "registry.outcome">;
type ReportedStatus = NonNullable<PollRegistryStatusCommand["reported_status"]>;

export interface StatusPollerDeps extends SubmitterPollingParts {
  gateway: RegistryGateway;
  /** How the waits between polls grow while the registry has not decided (the first wait is the command's poll_interval_seconds). */
  backoff: Pick<PollBackoff, "factor" | "maxSeconds">;
}

/**
 * `registry.poll_status`: asks the registry for the submission's status (PollUntilFinal) and
 * publishes the final outcome (ACCEPT, REJECT, INTERNAL_FAILURE), or schedules the next poll, each
 * wait longer than the one before up to the cap (PENDING, PARKED, an unknown code, or a
 * submission the registry does not list yet). A PENDING or PARKED that differs from the status
 * reported last is reported to the filing service (`registry.status`). A submission already
 * completed (redelivered poll) is left alone; transient failures are retried until `give_up_at`,
 * the polling horizon, when the accounts end in `error`: REGISTRY_NO_DECISION if the registry
 * held them undecided, else GATEWAY_TIMEOUT (registryHorizonOutcome).
 */
export class StatusPoller {
  private readonly polls: PollUntilFinal<PollRegistryStatusCommand>;

  constructor(private readonly deps: StatusPollerDeps) {
    this.polls = new PollUntilFinal({
      ...deps,
      subject: "accounts",
      retry: PLATFORM_MESSAGE_CATALOG["registry.poll_status"].retry,
      unavailable: { code: "REGISTRY_UNAVAILABLE", authority: "the registry", warning: "status poll failed: the registry is unavailable" },
      schedule: (command, delayMs) => deps.bus.publish("registry.poll_status", command, { delayMs }),
      giveUp: (command, why, logger) => this.giveUp(command, why, logger),
    });
  }

  poll(command: PollRegistryStatusCommand, context: DeliveryContext): Promise<void> {
    return this.polls.poll(command, context, {
      reference: command.submission_number,
      bindings: { filing_id: command.filing_id, submission_number: command.submission_number },
      ask: (call) => this.deps.gateway.status(command.submission_number, call),
      decide: (answer, logger) => this.decide(command, answer, logger),
    });
  }

  private async decide(command: PollRegistryStatusCommand, answer: StatusAnswer, logger: Logger): Promise<void> {
    const base = { filing_id: command.filing_id, submission_number: command.submission_number, ...submittedAtOf(command) };
    if (answer.type === "error") return this.finish({ ...base, ...registryRefusalOutcome(answer) }, logger);
    const status = answer.statuses.find((candidate) => candidate.submissionNumber === command.submission_number);
    switch (status?.outcome) {
      case "accepted":
        return this.finish(
          { ...base, outcome: "accepted", registry_status: status.statusCode, decided_at: new Date().toISOString() },
          logger,
        );
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
      ...submittedAtOf(command),
    });
    const reported: ReportedStatus = {
      code,
      since: last?.code === code ? last.since : polledAt,
      ...(comment ? { examiner_comment: comment } : {}),
    };
    return { ...command, reported_status: reported };
  }

  /** No decision yet: the next poll after a longer wait, or the horizon's outcome once it passed. */
  private async stillPending(command: PollRegistryStatusCommand, heldUndecided: boolean, logger: Logger): Promise<void> {
    const waitSeconds = backoffIntervalSeconds(
      { ...this.deps.backoff, initialSeconds: command.poll_interval_seconds },
      command.poll_number,
    );
    const next = await this.polls.pollAgain(command, waitSeconds);
    if (next.kind === "give_up") return this.giveUp(command, "the registry had no final status", logger, heldUndecided);
  }

  private giveUp(command: PollRegistryStatusCommand, why: string, logger: Logger, heldUndecided = false): Promise<void> {
    return this.finish(
      {
        filing_id: command.filing_id,
        submission_number: command.submission_number,
        ...submittedAtOf(command),
        ...registryHorizonOutcome(command, why, heldUndecided),
      },
      logger,
    );
  }

  /** Publishes the final outcome and remembers the submission as completed. */
  private async finish(outcome: Outcome, logger: Logger): Promise<void> {
    const code = await this.polls.complete(outcome.submission_number, outcome, (published) =>
      this.deps.bus.publish("registry.outcome", published),
    );
    logger.info({ outcome: outcome.outcome, registry_status: outcome.registry_status, code }, "accounts outcome published");
  }
}
