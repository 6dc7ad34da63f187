import { giveUpAt, nextPoll, resolveSubmission, submitFailure, submitOnce, type SubmissionLedger } from "@dormant/authority-client";
import type { RpcContext } from "@dormant/bus";
import {
  AppError,
  type ResolveTaxPartRequest,
  type ResolveTaxPartResponse,
  type SealingKey,
  type SubmitTaxPartRequest,
  type SubmitTaxPartResponse,
} from "@dormant/contracts";
import { buildCt600SubmitMessage, GovTalkInputError } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { Counter } from "prom-client";
import type { TaxSubmitterConfig } from "./env.ts";
import { findSubmittedPart } from "./find-submission.ts";
import { openTaxCredentials } from "./open-credentials.ts";
import { transactionIdFor, type TaxSubmitAttempt } from "./submit-attempt.ts";
import type { TaxBus } from "./tax-bus.ts";
import type { SubmitAnswer, TaxGateway } from "./tax-gateway.ts";

export interface PartSubmitterDeps {
  config: Pick<TaxSubmitterConfig, "tax" | "breaker" | "pollGiveUpAfterSeconds" | "inDoubtSettleSeconds">;
  sealingKeys: readonly SealingKey[];
  gateway: TaxGateway;
  ledger: SubmissionLedger<SubmitTaxPartResponse, TaxSubmitAttempt>;
  bus: TaxBus;
  /** The longest delay the poll queue can hold. */
  maxPollDelayMs: number;
  submissions: Counter<"result">;
  logger: Logger;
}

/** Which part of which filing. */
type PartRef = Pick<SubmitTaxPartRequest, "filing_id" | "part_number">;

/**
 * `tax.submit_part`: builds the part's CT600 (with its IRmark and the part's TransactionID),
 * submits it at most once (see submitOnce), schedules the first poll at the interval the
 * authority asked for, and answers with the correlation ID and the message as sent (password
 * masked). An earlier attempt in doubt (answer lost, worker died) is settled by asking the
 * Transaction Engine (DATA_REQUEST) for the part's TransactionID, never by sending it again
 * blindly. `tax.resolve_part`: the same question for the filing service, without ever sending.
 */
export class PartSubmitter {
  constructor(private readonly deps: PartSubmitterDeps) {}

  /** How long an attempt lives at most (the authority call, then publishing the first poll): older is a dead worker's. */
  private get abandonedAfterMs(): number {
    return this.deps.config.breaker.timeoutMs + 15_000;
  }

  private lookup(part: PartRef) {
    return findSubmittedPart({
      filingId: part.filing_id,
      partNumber: part.part_number,
      sealingKeys: this.deps.sealingKeys,
      list: (credentials, signal) => this.deps.gateway.listSubmissions(credentials, signal),
    });
  }

  async resolve(request: ResolveTaxPartRequest, context: RpcContext): Promise<ResolveTaxPartResponse> {
    const logger = this.deps.logger.child({ filing_id: request.filing_id, part_number: request.part_number });
    const resolution = await resolveSubmission({
      ledger: this.deps.ledger,
      id: `${request.filing_id}:${request.part_number}`,
      lookup: this.lookup(request),
      abandonedAfterMs: this.abandonedAfterMs,
      settleMs: this.deps.config.inDoubtSettleSeconds * 1000,
      followUp: (acknowledged) => this.scheduleFirstPoll(request, acknowledged, logger),
      logger,
      signal: context.signal,
    });
    logger.info({ state: resolution.state }, "CT600 part in doubt: resolution");
    if (resolution.state === "in_doubt") return { state: "in_doubt", reason: resolution.reason, retry_after_seconds: resolution.retryAfterSeconds };
    return resolution;
  }

  async submit(request: SubmitTaxPartRequest, context: RpcContext): Promise<SubmitTaxPartResponse> {
    const { deps } = this;
    const logger = deps.logger.child({ filing_id: request.filing_id, part_number: request.part_number, company_number: request.company.number });
    try {
      // The builder gives the message with the password masked as well (every other byte the
      // same): that is what the RPC answers as submitted_xml and the filing service stores.
      const transactionId = transactionIdFor(request.filing_id, request.part_number);
      const message = this.buildMessage(request, transactionId);
      const submittedXml = message.maskedXml;
      const { response, duplicate } = await submitOnce<SubmitTaxPartResponse, TaxSubmitAttempt>({
        ledger: deps.ledger,
        id: `${request.filing_id}:${request.part_number}`,
        logger,
        signal: context.signal,
        waitMs: deps.config.breaker.timeoutMs + 2_000,
        abandonedAfterMs: this.abandonedAfterMs,
        attempt: {
          transaction_id: transactionId,
          irmark_base64: message.irmark.base64,
          irmark_base32: message.irmark.base32,
          submitted_xml: submittedXml,
          credentials: request.credentials,
        },
        lookup: this.lookup(request),
        settleMs: deps.config.inDoubtSettleSeconds * 1000,
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
        // A CT600 sent twice is two submissions at the authority: one in doubt is never repeated
        // blindly. The filing stays pending; a repeat of the request, or the filing service's
        // tax.resolve_part, settles it with the authority (non-retryable here tells the filing
        // service that something may have been sent, so it keeps the filing).
        repeatInDoubt: "never",
      });
      deps.submissions.inc({ result: answer.code.toLowerCase() });
      logger.warn({ err: error, code: answer.code, kind }, "CT600 part not submitted");
      throw answer;
    }
  }

  private buildMessage(request: SubmitTaxPartRequest, transactionId: string) {
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
        // The accounts iXBRL the registry received, when the filing service has it; else the
        // return gives the dormant reason for having none (README, "Submit").
        ...(request.accounts
          ? {
              accounts: {
                ixbrl: Buffer.from(request.accounts.ixbrl_base64, "base64").toString("utf8"),
                ...(request.accounts.filename ? { filename: request.accounts.filename } : {}),
                period: request.accounts.covers,
              },
            }
          : {}),
      }, { transactionId });
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

  private async scheduleFirstPoll(request: PartRef, response: SubmitTaxPartResponse, logger: Logger): Promise<void> {
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
