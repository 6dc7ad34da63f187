import { giveUpAt, nextPoll, submitFailure, submitOnce, type SubmissionLedger } from "@dormant/authority-client";
import type { RpcContext } from "@dormant/bus";
import { AppError, type SealingKey, type SubmitTaxPartRequest, type SubmitTaxPartResponse } from "@dormant/contracts";
import { buildCt600SubmitMessage, GovTalkInputError } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { Counter } from "prom-client";
import type { TaxSubmitterConfig } from "./env.ts";
import { openTaxCredentials } from "./open-credentials.ts";
import type { TaxBus } from "./tax-bus.ts";
import type { SubmitAnswer, TaxGateway } from "./tax-gateway.ts";

export interface PartSubmitterDeps {
  config: Pick<TaxSubmitterConfig, "tax" | "breaker" | "pollGiveUpAfterSeconds">;
  sealingKeys: readonly SealingKey[];
  gateway: TaxGateway;
  ledger: SubmissionLedger<SubmitTaxPartResponse>;
  bus: TaxBus;
  /** The longest delay the poll queue can hold. */
  maxPollDelayMs: number;
  submissions: Counter<"result">;
  logger: Logger;
}

/**
 * `tax.submit_part`: builds the part's CT600 (with its IRmark), submits it at most once (see
 * submitOnce), schedules the first poll at the interval the authority asked for, and answers
 * with the correlation ID and the message as sent (password masked).
 */
export class PartSubmitter {
  constructor(private readonly deps: PartSubmitterDeps) {}

  async submit(request: SubmitTaxPartRequest, context: RpcContext): Promise<SubmitTaxPartResponse> {
    const { deps } = this;
    const logger = deps.logger.child({ filing_id: request.filing_id, part_number: request.part_number, company_number: request.company.number });
    try {
      // The builder gives the message with the password masked as well (every other byte the
      // same): that is what the RPC answers as submitted_xml and the filing service stores.
      const message = this.buildMessage(request);
      const submittedXml = message.maskedXml;
      const { response, duplicate } = await submitOnce<SubmitTaxPartResponse>({
        ledger: deps.ledger,
        id: `${request.filing_id}:${request.part_number}`,
        logger,
        signal: context.signal,
        waitMs: deps.config.breaker.timeoutMs + 2_000,
        // Longer than an attempt lives (the authority call, then publishing the first poll): older is a dead worker's.
        abandonedAfterMs: deps.config.breaker.timeoutMs + 15_000,
        submit: async () => this.acknowledged(await deps.gateway.submit(message.xml, context.signal), message.irmark, submittedXml),
        followUp: (acknowledged) => this.scheduleFirstPoll(request, acknowledged, logger),
      });
      deps.submissions.inc({ result: duplicate ? "duplicate" : "acknowledged" });
      logger.info({ correlation_id: response.correlation_id, duplicate }, "CT600 part submitted");
      return response;
    } catch (error) {
      const { error: answer, kind } = submitFailure(error, {
        unavailableCode: "TAX_UNAVAILABLE",
        authority: "tax authority",
        defaultRetryAfterSeconds: Math.ceil(deps.config.breaker.resetTimeoutMs / 1000),
        // A CT600 sent twice is two submissions at the authority: one in doubt is never repeated.
        repeatInDoubt: "never",
      });
      deps.submissions.inc({ result: answer.code.toLowerCase() });
      logger.warn({ err: error, code: answer.code, kind }, "CT600 part not submitted");
      throw answer;
    }
  }

  private buildMessage(request: SubmitTaxPartRequest) {
    const { tax } = this.deps.config;
    const credentials = openTaxCredentials(request.credentials, this.deps.sealingKeys, request.filing_id, request.part_number);
    try {
      return buildCt600SubmitMessage({
        utr: request.company.utr,
        companyName: request.company.name,
        companyNumber: request.company.number,
        periodStart: request.period.start,
        periodEnd: request.period.end,
        declarantName: request.declarant.name,
        declarantStatus: request.declarant.status,
        vendorId: tax.vendorId,
        productName: tax.productName,
        productVersion: tax.productVersion,
        gatewayTest: tax.gatewayTest,
        companyType: tax.companyType,
        senderId: credentials.government_gateway_id,
        password: credentials.government_gateway_password,
      });
    } catch (error) {
      if (error instanceof GovTalkInputError) throw new AppError("VALIDATION_ERROR", `the CT600 could not be built: ${error.message}`, { retryable: false });
      throw error;
    }
  }

  /** The RPC answer for an acknowledgement; a refusal becomes the AppError the caller gets. */
  private acknowledged(answer: SubmitAnswer, irmark: { base64: string; base32: string }, submittedXml: string): SubmitTaxPartResponse {
    if (answer.type === "acknowledgement") {
      return {
        correlation_id: answer.correlationId,
        irmark_base64: irmark.base64,
        irmark_base32: irmark.base32,
        poll_interval_seconds: Math.max(1, answer.pollIntervalSeconds),
        submitted_at: new Date().toISOString(),
        submitted_xml: submittedXml,
      };
    }
    const { kind, summary } = answer.classification;
    if (kind === "authentication") {
      throw new AppError("TAX_AUTH_FAILED", `The tax authority refused the Government Gateway credentials (${summary}).`, { retryable: false });
    }
    if (kind === "business") {
      throw new AppError("VALIDATION_ERROR", `The tax authority refused the return: ${summary}`, {
        retryable: false,
        details: [{ field: "return", message: summary }],
      });
    }
    this.deps.logger.error({ classification: kind, summary }, "the tax authority refused the message we built");
    throw new AppError("INTERNAL_ERROR", "The tax authority refused the submission as malformed.", { retryable: false });
  }

  private async scheduleFirstPoll(request: SubmitTaxPartRequest, response: SubmitTaxPartResponse, logger: Logger): Promise<void> {
    const giveUp = giveUpAt(new Date(response.submitted_at), this.deps.config.pollGiveUpAfterSeconds);
    const next = nextPoll(response.poll_interval_seconds, giveUp, this.deps.maxPollDelayMs);
    try {
      await this.deps.bus.publish(
        "tax.poll_part",
        {
          filing_id: request.filing_id,
          part_number: request.part_number,
          correlation_id: response.correlation_id,
          irmark_base64: response.irmark_base64,
          poll_interval_seconds: response.poll_interval_seconds,
          give_up_at: giveUp,
          poll_number: 1,
        },
        { delayMs: next.kind === "poll_again" ? next.delayMs : 0 },
      );
    } catch (error) {
      logger.error({ err: error, correlation_id: response.correlation_id }, "submitted, but the first poll could not be scheduled");
      throw new AppError("SERVICE_UNAVAILABLE", "The return was submitted but its polling could not be scheduled; repeat the request to complete it.", {
        retryable: true,
        retryAfterSeconds: 5,
        cause: error,
      });
    }
  }
}
