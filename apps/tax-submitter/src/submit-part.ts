import { SubmissionRpc, type SubmitterSubmittingParts } from "@dormant/authority-client";
import type { RpcContext } from "@dormant/bus";
import {
  AppError,
  type ResolveTaxPartRequest,
  type ResolveTaxPartResponse,
  type SubmitTaxPartRequest,
  type SubmitTaxPartResponse,
} from "@dormant/contracts";
import { GovTalkInputError } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import { buildPartMessage, type PartMessage } from "./build-part-message.ts";
import { checkPartSchema, failedChecksError } from "./check-part.ts";
import type { TaxSubmitterConfig } from "./env.ts";
import { findSubmittedPart } from "./find-submission.ts";
import { openTaxCredentials } from "./open-credentials.ts";
import type { TaxSubmitAttempt } from "./submit-attempt.ts";
import type { SubmitAnswer, TaxGateway } from "./tax-gateway.ts";

export interface PartSubmitterDeps extends SubmitterSubmittingParts<SubmitTaxPartResponse, TaxSubmitAttempt> {
  config: Pick<TaxSubmitterConfig, "tax" | "breaker" | "pollGiveUpAfterSeconds" | "inDoubtSettleSeconds">;
  gateway: TaxGateway;
}

/** Which part of which filing. */
type PartRef = Pick<SubmitTaxPartRequest, "filing_id" | "part_number">;

/**
 * `tax.submit_part`: builds the part's CT600 (with its IRmark and the part's TransactionID),
 * refuses it if it fails the tax authority's own checks (the CT schema, HMRC's business rules),
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

  async submit(request: SubmitTaxPartRequest, context: RpcContext): Promise<SubmitTaxPartResponse> {
    const logger = this.deps.logger.child({
      filing_id: request.filing_id,
      part_number: request.part_number,
      company_number: request.company.number,
    });
    // Built and checked before anything is claimed or sent (checkedMessage); SubmissionRpc's
    // build callback is synchronous, so the outcome is awaited here and a refusal thrown from
    // inside the callback: answered, counted and logged like any refusal to build, with nothing
    // claimed in the ledger and nothing sent (a refusal is final: the same request fails the same
    // checks again).
    const checked = await this.checkedMessage(request).then(
      (built) => ({ built }),
      (error: unknown) => ({ error }),
    );
    return this.rpc.submit(logger, () => {
      if ("error" in checked) throw checked.error;
      // The builder gives the message with the password masked as well (every other byte the
      // same): that is what the RPC answers as submitted_xml and the filing service stores.
      const { transactionId, message } = checked.built;
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

  /**
   * The part's message (buildPartMessage, the same code `tax.check_part` builds with), refused
   * with VALIDATION_ERROR when it cannot be built or fails HMRC's CT schema (checkPartSchema, in
   * process, under a millisecond), so nothing malformed is ever sent. HMRC's business rules are
   * not run here: they cost ~0.1 s of CPU per message in xsltproc, and run before every
   * submission they capped live submits on this 2-core machine at about 5 a second (live bench
   * of 2026-11-27: at 20 submits/s, 182 of 300 answered 202, submit p50 24.8 s, against 300/300
   * and p50 22 ms without). Agents run them with the validate-only endpoints (`tax.check_part`),
   * and the authority runs them on what it receives.
   */
  private async checkedMessage(request: SubmitTaxPartRequest): Promise<PartMessage> {
    const credentials = openTaxCredentials(request.credentials, this.deps.sealingKeys, request.filing_id, request.part_number);
    let built: PartMessage;
    try {
      built = buildPartMessage(this.deps.config.tax, request, {
        senderId: credentials.government_gateway_id,
        password: credentials.government_gateway_password,
      });
    } catch (error) {
      if (error instanceof GovTalkInputError)
        throw new AppError("VALIDATION_ERROR", `the CT600 could not be built: ${error.message}`, { retryable: false });
      throw error;
    }
    const problems = await checkPartSchema(built.message.xml, request.part_number);
    if (problems.length > 0) throw failedChecksError(problems);
    return built;
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
              // The record of the submit goes along, so that the polling and outcome messages
              // bring it to the filing service should this RPC's answer never reach it.
              submission: {
                irmark_base64: response.irmark_base64,
                submitted_at: response.submitted_at,
                submitted_xml: response.submitted_xml,
              },
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
