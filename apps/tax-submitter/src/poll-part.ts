import { PollUntilFinal, type SubmitterPollingParts } from "@dormant/authority-client";
import type { DeliveryContext, PayloadInput } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, type PollTaxPartCommand } from "@dormant/contracts";
import { irmarkToBase32, receiptConfirmsIRmark, type Ct600Success } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import { londonTimeToIso } from "./london-time.ts";
import { taxErrorOutcome } from "./tax-error-outcome.ts";
import type { PollAnswer, TaxGateway } from "./tax-gateway.ts";

type Outcome = PayloadInput<typeof PLATFORM_MESSAGE_CATALOG, "tax.part_outcome">;

export interface PartPollerDeps extends SubmitterPollingParts {
  gateway: TaxGateway;
}

/**
 * `tax.poll_part`: polls one submitted part (PollUntilFinal) and either publishes its final
 * outcome (then deletes the submission at the authority) or schedules the next poll at the
 * interval the authority asks for. A part already completed (redelivered poll) is left alone;
 * transient failures are retried until `give_up_at`, when the part ends in `error` GATEWAY_TIMEOUT.
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
    return this.polls.poll(command, context, {
      reference: command.correlation_id,
      bindings: { filing_id: command.filing_id, part_number: command.part_number, correlation_id: command.correlation_id },
      ask: (call) => this.deps.gateway.poll(command.correlation_id, endpoint, call),
      decide: (answer, logger) => this.decide(command, answer, endpoint, logger),
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
          { ...outcome, filing_id: command.filing_id, part_number: command.part_number, correlation_id: command.correlation_id },
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
    if (command.poll_number === 1) {
      await this.deps.bus.publish("tax.part_polling", {
        filing_id: command.filing_id,
        part_number: command.part_number,
        correlation_id: command.correlation_id,
        polled_at: new Date().toISOString(),
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

  private async accepted(command: PollTaxPartCommand, answer: Ct600Success, endpoint: string, logger: Logger): Promise<void> {
    const irmark = { base64: command.irmark_base64, base32: irmarkToBase32(command.irmark_base64) };
    const base = { filing_id: command.filing_id, part_number: command.part_number, correlation_id: command.correlation_id };
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

  private giveUp(command: PollTaxPartCommand, why: string, logger: Logger): Promise<void> {
    return this.finish(
      {
        filing_id: command.filing_id,
        part_number: command.part_number,
        correlation_id: command.correlation_id,
        outcome: "error",
        error: { code: "GATEWAY_TIMEOUT", message: `The tax authority did not give a final answer by ${command.give_up_at} (${why}).` },
        authority_errors: [],
      },
      undefined,
      logger,
    );
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
