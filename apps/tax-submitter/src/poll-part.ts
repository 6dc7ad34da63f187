import { PollUntilFinal, type SubmitterPollingParts } from "@dormant/authority-client";
import type { DeliveryContext, PayloadInput } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, type PollTaxPartCommand, type TaxPartSubmission } from "@dormant/contracts";
import { irmarkToBase32, receiptConfirmsIRmark, type Ct600Success } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import { londonTimeToIso } from "./london-time.ts";
import { taxErrorOutcome } from "./tax-error-outcome.ts";
import type { PollAnswer, TaxGateway } from "./tax-gateway.ts";

type Outcome = PayloadInput<typeof PLATFORM_MESSAGE_CATALOG, "tax.part_outcome">;

/**
 * The record of the part's submit the poll command carries, for the messages to the filing service
 * (none on a command scheduled before the record was carried).
 */
function submissionOf(command: PollTaxPartCommand): { submission?: TaxPartSubmission } {
  return command.submission ? { submission: command.submission } : {};
}

export interface PartPollerDeps extends SubmitterPollingParts {
  gateway: TaxGateway;
  /** Late checks after a give-up (TaxSubmitterConfig.lateCheck; seconds 0: none). */
  lateCheck: { seconds: number; intervalSeconds: number };
}

/**
 * `tax.poll_part`: polls one submitted part (PollUntilFinal) and either publishes its final
 * outcome (then deletes the submission at the authority) or schedules the next poll at the
 * interval the authority asks for. A part already completed (redelivered poll) is left alone;
 * transient failures are retried until `give_up_at`, when the part ends in `error` GATEWAY_TIMEOUT.
 *
 * That `error` is ours, not the authority's decision: the engine may still accept the return. So a
 * part given up is checked again (`late_check` polls, every `lateCheck.intervalSeconds` for
 * `lateCheck.seconds`): an acceptance then is published like any (the filing service applies it
 * as a late acceptance: charged, documents, `filing.accepted`), a refusal too (the filing service
 * keeps the part's `error`: a final status never moves backwards), and the submission deleted at
 * the engine; checks that end unanswered publish nothing more.
 */
export class PartPoller {
  private readonly polls: PollUntilFinal<PollTaxPartCommand>;

  constructor(private readonly deps: PartPollerDeps) {
    this.polls = new PollUntilFinal({
      ...deps,
      subject: "part",
      retry: PLATFORM_MESSAGE_CATALOG["tax.poll_part"].retry,
      unavailable: { code: "TAX_UNAVAILABLE", authority: "the tax authority", warning: "poll failed: the tax authority is unavailable" },
      schedule: (command, delayMs) => deps.bus.publish("tax.poll_part", command, { delayMs }),
      giveUp: (command, why, logger) => this.giveUp(command, why, logger),
    });
  }

  poll(command: PollTaxPartCommand, context: DeliveryContext): Promise<void> {
    const endpoint = command.response_endpoint ?? this.deps.gateway.pollUrl;
    const late = command.late_check === true;
    return this.polls.poll(command, context, {
      reference: command.correlation_id,
      bindings: {
        filing_id: command.filing_id,
        part_number: command.part_number,
        correlation_id: command.correlation_id,
        ...(late ? { late_check: true } : {}),
      },
      ask: (call) => this.deps.gateway.poll(command.correlation_id, endpoint, call),
      decide: (answer, logger) => this.decide(command, answer, endpoint, logger),
      // A late check goes on after our own `error`, never after the authority's answer was published.
      ...(late ? { askAgainAfter: (outcome: string) => outcome === "error" } : {}),
    });
  }

  private decide(command: PollTaxPartCommand, answer: PollAnswer, endpoint: string, logger: Logger): Promise<void> {
    switch (answer.type) {
      case "acknowledgement":
        return this.stillPending(command, answer.pollIntervalSeconds, answer.responseEndPoint, logger);
      case "success":
        return this.accepted(command, answer, endpoint, logger);
      case "error": {
        const outcome = taxErrorOutcome(answer);
        const gone = answer.errors.some((error) => error.number === 2000);
        return this.finish(
          {
            ...outcome,
            filing_id: command.filing_id,
            part_number: command.part_number,
            correlation_id: command.correlation_id,
            ...submissionOf(command),
          },
          gone ? undefined : endpoint,
          logger,
        );
      }
    }
  }

  private async stillPending(
    command: PollTaxPartCommand,
    intervalSeconds: number,
    responseEndPoint: string | undefined,
    logger: Logger,
  ): Promise<void> {
    if (command.late_check) return this.stillPendingLate(command, logger);
    if (command.poll_number === 1) {
      await this.deps.bus.publish("tax.part_polling", {
        filing_id: command.filing_id,
        part_number: command.part_number,
        correlation_id: command.correlation_id,
        polled_at: new Date().toISOString(),
        ...submissionOf(command),
      });
    }
    const interval = Math.max(1, intervalSeconds);
    const next = await this.polls.pollAgain(
      { ...command, poll_interval_seconds: interval, response_endpoint: responseEndPoint ?? command.response_endpoint },
      interval,
    );
    if (next.kind === "give_up") return this.giveUp(command, "the tax authority had no final answer", logger);
    logger.debug({ next_poll_in_ms: next.delayMs }, "still pending");
  }

  /** A late check found no decision yet: the next one after the late interval, until the checks end. */
  private async stillPendingLate(command: PollTaxPartCommand, logger: Logger): Promise<void> {
    const next = await this.polls.pollAgain(command, this.deps.lateCheck.intervalSeconds);
    if (next.kind === "give_up") return this.giveUp(command, "the tax authority had no final answer", logger);
    logger.debug({ next_poll_in_ms: next.delayMs }, "late check: still no final answer");
  }

  private async accepted(command: PollTaxPartCommand, answer: Ct600Success, endpoint: string, logger: Logger): Promise<void> {
    const irmark = { base64: command.irmark_base64, base32: irmarkToBase32(command.irmark_base64) };
    const base = {
      filing_id: command.filing_id,
      part_number: command.part_number,
      correlation_id: command.correlation_id,
      ...submissionOf(command),
    };
    if (!receiptConfirmsIRmark(answer.receipt, irmark)) {
      // Not proof that our return was accepted: report it and keep the submission for support.
      logger.error({ receipt_digest: answer.receipt.digestBase64, irmark: irmark.base64 }, "the receipt does not quote the IRmark we sent");
      return this.finish(
        {
          ...base,
          outcome: "error",
          error: { code: "INTERNAL_ERROR", message: "The tax authority's receipt does not confirm the return that was sent." },
          authority_errors: [],
        },
        undefined,
        logger,
      );
    }
    return this.finish(
      {
        ...base,
        outcome: "accepted",
        receipt_irmark_base32: answer.receipt.irmarkBase32 ?? irmark.base32,
        receipt_message: answer.receipt.message ?? "",
        accepted_time: londonTimeToIso(answer.acceptedTime) ?? new Date().toISOString(),
      },
      endpoint,
      logger,
    );
  }

  /**
   * The give-up instant passed without a final answer: the part ends in `error` GATEWAY_TIMEOUT,
   * and its late checks start (when configured). At the end of the late checks: nothing more.
   */
  private async giveUp(command: PollTaxPartCommand, why: string, logger: Logger): Promise<void> {
    if (command.late_check) {
      logger.warn({ checked_until: command.give_up_at, reason: why }, "late checks ended without a final answer: the part stays in error");
      return;
    }
    await this.finish(
      {
        filing_id: command.filing_id,
        part_number: command.part_number,
        correlation_id: command.correlation_id,
        ...submissionOf(command),
        outcome: "error",
        error: { code: "GATEWAY_TIMEOUT", message: `The tax authority did not give a final answer by ${command.give_up_at} (${why}).` },
        authority_errors: [],
      },
      undefined,
      logger,
    );
    const { seconds, intervalSeconds } = this.deps.lateCheck;
    if (seconds <= 0) return;
    const lateCheck: PollTaxPartCommand = {
      ...command,
      late_check: true,
      give_up_at: new Date(Date.now() + seconds * 1000).toISOString(),
      poll_number: command.poll_number + 1,
    };
    // The error outcome stands if this fails (nothing else would check the part again): logged.
    try {
      await this.deps.bus.publish("tax.poll_part", lateCheck, { delayMs: Math.min(intervalSeconds * 1000, this.deps.maxPollDelayMs) });
      logger.info({ late_checks_until: lateCheck.give_up_at, every_seconds: intervalSeconds }, "part given up: late checks scheduled");
    } catch (error) {
      logger.error({ err: error }, "part given up, but its late checks could not be scheduled");
    }
  }

  /**
   * Publishes the final outcome, remembers the part as completed, then (for an answer the
   * authority gave) deletes the submission there. A failed delete is logged and changes nothing.
   */
  private async finish(outcome: Outcome, deleteAt: string | undefined, logger: Logger): Promise<void> {
    const code = await this.polls.complete(outcome.correlation_id, outcome, (published) =>
      this.deps.bus.publish("tax.part_outcome", published),
    );
    logger.info({ outcome: outcome.outcome, code }, "part outcome published");
    if (deleteAt === undefined) return;
    try {
      const deleted = await this.deps.gateway.delete(outcome.correlation_id, deleteAt);
      logger.debug({ deleted }, "submission deleted at the tax authority");
    } catch (error) {
      logger.warn({ err: error }, "could not delete the submission at the tax authority (the outcome stands)");
    }
  }
}
