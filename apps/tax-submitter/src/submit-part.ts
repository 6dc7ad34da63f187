import { SubmissionRpc, type SubmitterSubmittingParts } from "@dormant/authority-client";
import type { RpcContext } from "@dormant/bus";
import {
  AppError,
  type ResolveTaxPartRequest,
  type ResolveTaxPartResponse,
  type SubmitTaxPartRequest,
  type SubmitTaxPartResponse,
} from "@dormant/contracts";
import { buildCt600SubmitMessage, GovTalkInputError } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { TaxSubmitterConfig } from "./env.ts";
import { findSubmittedPart } from "./find-submission.ts";
import { openTaxCredentials } from "./open-credentials.ts";
import { transactionIdFor, type TaxSubmitAttempt } from "./submit-attempt.ts";
import type { SubmitAnswer, TaxGateway } from "./tax-gateway.ts";

export interface PartSubmitterDeps extends SubmitterSubmittingParts<SubmitTaxPartResponse, TaxSubmitAttempt> {
  config: Pick<TaxSubmitterConfig, "tax" | "breaker" | "pollGiveUpAfterSeconds" | "inDoubtSettleSeconds">;
  gateway: TaxGateway;
}

/** Which part of which filing. */
type PartRef = Pick<SubmitTaxPartRequest, "filing_id" | "part_number">;

/**
 * `tax.submit_part`: builds the part's CT600 (with its IRmark and the part's TransactionID),
 * submits it at most once (SubmissionRpc, submitOnce), schedules the first poll at the interval
 * the authority asked for, and answers with the correlation ID and the message as sent (password
 * masked). An earlier attempt in doubt (answer lost, worker died) is settled by asking the
 * Transaction Engine (DATA_REQUEST) for the part's TransactionID, never by sending it again
 * blindly. `tax.resolve_part`: the same question for the filing service, without ever sending.
 */
export class PartSubmitter {
  private readonly rpc: SubmissionRpc<SubmitTaxPartResponse, TaxSubmitAttempt>;

  constructor(private readonly deps: PartSubmitterDeps) {
    this.rpc = new SubmissionRpc({
      ...deps,
      subject: "CT600 part",
      failure: {
        unavailableCode: "TAX_UNAVAILABLE",
        authority: "tax authority",
        // A CT600 sent twice is two submissions at the authority: one in doubt is never repeated
        // blindly. The filing stays pending; a repeat of the request, or the filing service's
        // tax.resolve_part, settles it with the authority (non-retryable here tells the filing
        // service that something may have been sent, so it keeps the filing).
        repeatInDoubt: "never",
      },
    });
  }

  /** The part's submission: its id in the ledger, how to ask the engine about it, its first poll. */
  private call(part: PartRef, logger: Logger, context: RpcContext) {
    return {
      id: `${part.filing_id}:${part.part_number}`,
      lookup: findSubmittedPart({
        filingId: part.filing_id,
        partNumber: part.part_number,
        sealingKeys: this.deps.sealingKeys,
        list: (credentials, signal) => this.deps.gateway.listSubmissions(credentials, signal),
      }),
      followUp: (acknowledged: SubmitTaxPartResponse) => this.scheduleFirstPoll(part, acknowledged, logger),
      signal: context.signal,
    };
  }

  resolve(request: ResolveTaxPartRequest, context: RpcContext): Promise<ResolveTaxPartResponse> {
    const logger = this.deps.logger.child({ filing_id: request.filing_id, part_number: request.part_number });
    return this.rpc.resolve(logger, this.call(request, logger, context));
  }

  submit(request: SubmitTaxPartRequest, context: RpcContext): Promise<SubmitTaxPartResponse> {
    const logger = this.deps.logger.child({
      filing_id: request.filing_id,
      part_number: request.part_number,
      company_number: request.company.number,
    });
    return this.rpc.submit(logger, () => {
      // The builder gives the message with the password masked as well (every other byte the
      // same): that is what the RPC answers as submitted_xml and the filing service stores.
      const transactionId = transactionIdFor(request.filing_id, request.part_number);
      const message = this.buildMessage(request, transactionId);
      const submittedXml = message.maskedXml;
      return {
        ...this.call(request, logger, context),
        attempt: {
          transaction_id: transactionId,
          irmark_base64: message.irmark.base64,
          irmark_base32: message.irmark.base32,
          submitted_xml: submittedXml,
          credentials: request.credentials,
        },
        send: async () => this.acknowledged(await this.deps.gateway.submit(message.xml, context.signal), message.irmark, submittedXml),
        logged: (response) => ({ correlation_id: response.correlation_id }),
      };
    });
  }

  private buildMessage(request: SubmitTaxPartRequest, transactionId: string) {
    const { tax } = this.deps.config;
    const credentials = openTaxCredentials(request.credentials, this.deps.sealingKeys, request.filing_id, request.part_number);
    try {
      return buildCt600SubmitMessage(
        {
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
        },
        { transactionId },
      );
    } catch (error) {
      if (error instanceof GovTalkInputError)
        throw new AppError("VALIDATION_ERROR", `the CT600 could not be built: ${error.message}`, { retryable: false });
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
      throw new AppError("TAX_AUTH_FAILED", `The tax authority refused the Government Gateway credentials (${summary}).`, {
        retryable: false,
      });
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

  private scheduleFirstPoll(request: PartRef, response: SubmitTaxPartResponse, logger: Logger): Promise<void> {
    return this.rpc.scheduleFirstPoll(
      {
        submittedAt: response.submitted_at,
        intervalSeconds: response.poll_interval_seconds,
        publish: (first, delayMs) =>
          this.deps.bus.publish(
            "tax.poll_part",
            {
              filing_id: request.filing_id,
              part_number: request.part_number,
              correlation_id: response.correlation_id,
              irmark_base64: response.irmark_base64,
              poll_interval_seconds: response.poll_interval_seconds,
              ...first,
            },
            { delayMs },
          ),
      },
      {
        logger,
        fields: { correlation_id: response.correlation_id },
        unscheduled: "submitted, but the first poll could not be scheduled",
        message: "The return was submitted but its polling could not be scheduled; repeat the request to complete it.",
      },
    );
  }
}
