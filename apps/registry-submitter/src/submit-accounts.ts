import { giveUpAt, nextPoll, resolveSubmission, submitFailure, submitOnce, type SubmissionLedger } from "@dormant/authority-client";
import type { RpcContext } from "@dormant/bus";
import {
  AppError,
  type ResolveRegistryAccountsRequest,
  type ResolveRegistryAccountsResponse,
  type SealingKey,
  type SubmitRegistryAccountsRequest,
  type SubmitRegistryAccountsResponse,
} from "@dormant/contracts";
import { buildAccountsSubmission, GovTalkInputError, isDuplicateSubmissionError, newTransactionId } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { Counter } from "prom-client";
import type { RegistrySubmitterConfig } from "./env.ts";
import { findSubmittedAccounts } from "./find-submission.ts";
import { openAccountsCredentials } from "./open-credentials.ts";
import type { RegistryBus } from "./registry-bus.ts";
import type { RegistryGateway, SubmitAnswer } from "./registry-gateway.ts";

export interface AccountsSubmitterDeps {
  config: Pick<RegistrySubmitterConfig, "registry" | "breaker" | "pollGiveUpAfterSeconds" | "inDoubtSettleSeconds">;
  sealingKeys: readonly SealingKey[];
  gateway: RegistryGateway;
  ledger: SubmissionLedger<SubmitRegistryAccountsResponse>;
  bus: RegistryBus;
  maxPollDelayMs: number;
  submissions: Counter<"result">;
  logger: Logger;
}

/** Which accounts: the filing, its submission number and company. */
type AccountsRef = { filing_id: string; submission_number: string; company: { number: string } };

/**
 * `registry.submit_accounts`: builds the FormSubmission (presenter credentials from
 * configuration, the company authentication code from the sealed credentials), submits it at
 * most once (see submitOnce), and schedules the first status poll. An earlier attempt in doubt
 * (answer lost, worker died) is settled by asking the registry for its submission number
 * (GetSubmissionStatus), and sent again only if the registry does not have it.
 * `registry.resolve_accounts`: the same question for the filing service, without ever sending.
 */
export class AccountsSubmitter {
  constructor(private readonly deps: AccountsSubmitterDeps) {}

  /** How long an attempt lives at most (the authority call, then publishing the first poll): older is a dead worker's. */
  private get abandonedAfterMs(): number {
    return this.deps.config.breaker.timeoutMs + 15_000;
  }

  private lookup(submissionNumber: string) {
    return findSubmittedAccounts({ submissionNumber, status: (number, options) => this.deps.gateway.status(number, options) });
  }

  async resolve(request: ResolveRegistryAccountsRequest, context: RpcContext): Promise<ResolveRegistryAccountsResponse> {
    const logger = this.deps.logger.child({ filing_id: request.filing_id, submission_number: request.submission_number });
    const ref: AccountsRef = { filing_id: request.filing_id, submission_number: request.submission_number, company: { number: request.company_number } };
    const resolution = await resolveSubmission({
      ledger: this.deps.ledger,
      id: request.filing_id,
      lookup: this.lookup(request.submission_number),
      abandonedAfterMs: this.abandonedAfterMs,
      settleMs: this.deps.config.inDoubtSettleSeconds * 1000,
      followUp: (acknowledged) => this.scheduleFirstPoll(ref, acknowledged, logger),
      logger,
      signal: context.signal,
    });
    logger.info({ state: resolution.state }, "accounts in doubt: resolution");
    if (resolution.state === "in_doubt") return { state: "in_doubt", reason: resolution.reason, retry_after_seconds: resolution.retryAfterSeconds };
    return resolution;
  }

  async submit(request: SubmitRegistryAccountsRequest, context: RpcContext): Promise<SubmitRegistryAccountsResponse> {
    const { deps } = this;
    const logger = deps.logger.child({ filing_id: request.filing_id, submission_number: request.submission_number, company_number: request.company.number });
    try {
      const xml = this.buildMessage(request);
      const { response, duplicate } = await submitOnce<SubmitRegistryAccountsResponse>({
        ledger: deps.ledger,
        id: request.filing_id,
        logger,
        signal: context.signal,
        waitMs: deps.config.breaker.timeoutMs + 2_000,
        abandonedAfterMs: this.abandonedAfterMs,
        submit: async () => this.acknowledged(request, await deps.gateway.submit(xml, context.signal), logger),
        // An attempt in doubt is not repeated blindly: the registry is asked for its submission
        // number first (it would also refuse the number a second time, which `acknowledged` takes
        // as proof, but a second transmission is avoided).
        lookup: this.lookup(request.submission_number),
        settleMs: deps.config.inDoubtSettleSeconds * 1000,
        followUp: (acknowledged) => this.scheduleFirstPoll(request, acknowledged, logger),
      });
      deps.submissions.inc({ result: duplicate ? "duplicate" : "acknowledged" });
      logger.info({ duplicate }, "accounts submitted");
      return response;
    } catch (error) {
      const { error: answer, kind } = submitFailure(error, {
        unavailableCode: "REGISTRY_UNAVAILABLE",
        authority: "registry",
        defaultRetryAfterSeconds: Math.ceil(deps.config.breaker.resetTimeoutMs / 1000),
        repeatInDoubt: "safe",
      });
      deps.submissions.inc({ result: answer.code.toLowerCase() });
      logger.warn({ err: error, code: answer.code, kind }, "accounts not submitted");
      throw answer;
    }
  }

  private buildMessage(request: SubmitRegistryAccountsRequest): string {
    const { registry } = this.deps.config;
    const credentials = openAccountsCredentials(request.credentials, this.deps.sealingKeys, request.filing_id);
    try {
      return buildAccountsSubmission({
        presenter: registry.presenter,
        transactionId: newTransactionId(),
        gatewayTest: registry.gatewayTest,
        submissionNumber: request.submission_number,
        companyNumber: request.company.number,
        companyType: request.company.registry_company_type,
        companyName: request.company.name,
        companyAuthCode: credentials.company_auth_code,
        packageReference: registry.packageReference,
        dateSigned: request.date_signed,
        document: { content: Buffer.from(request.ixbrl_base64, "base64"), filename: request.document_filename },
      }).xml;
    } catch (error) {
      if (error instanceof GovTalkInputError) throw new AppError("VALIDATION_ERROR", `the accounts submission could not be built: ${error.message}`, { retryable: false });
      throw error;
    }
  }

  private acknowledged(request: SubmitRegistryAccountsRequest, answer: SubmitAnswer, logger: Logger): SubmitRegistryAccountsResponse {
    const response = { submission_number: request.submission_number, submitted_at: new Date().toISOString() };
    if (answer.type === "acknowledgement") return response;
    // Submission numbers are allocated once per filing: a number the registry already has means
    // an earlier attempt of this very filing was received (its answer lost). Poll its status.
    if (isDuplicateSubmissionError(answer.errors)) {
      logger.warn("the registry already has this submission number: an earlier attempt was received; polling its status");
      return response;
    }
    const { kind, summary } = answer.classification;
    if (kind === "authentication") {
      logger.error({ summary }, "the registry refused the presenter credentials: check REGISTRY_PRESENTER_ID / REGISTRY_PRESENTER_AUTH_CODE");
      throw new AppError("INTERNAL_ERROR", "The registry refused the platform's presenter credentials.", { retryable: false });
    }
    if (kind === "business") {
      throw new AppError("VALIDATION_ERROR", `The registry refused the accounts: ${summary}`, { retryable: false, details: [{ field: "accounts", message: summary }] });
    }
    logger.error({ classification: kind, summary }, "the registry refused the submission we built");
    throw new AppError("INTERNAL_ERROR", `The registry refused the submission: ${summary}`, { retryable: false });
  }

  private async scheduleFirstPoll(request: AccountsRef, response: SubmitRegistryAccountsResponse, logger: Logger): Promise<void> {
    const { registry, pollGiveUpAfterSeconds } = this.deps.config;
    const giveUp = giveUpAt(new Date(response.submitted_at), pollGiveUpAfterSeconds);
    const next = nextPoll(registry.pollIntervalSeconds, giveUp, this.deps.maxPollDelayMs);
    try {
      await this.deps.bus.publish(
        "registry.poll_status",
        {
          filing_id: request.filing_id,
          submission_number: response.submission_number,
          company_number: request.company.number,
          poll_interval_seconds: registry.pollIntervalSeconds,
          give_up_at: giveUp,
          poll_number: 1,
        },
        { delayMs: next.kind === "poll_again" ? next.delayMs : 0 },
      );
    } catch (error) {
      logger.error({ err: error }, "submitted, but the first status poll could not be scheduled");
      throw new AppError("SERVICE_UNAVAILABLE", "The accounts were submitted but their status polling could not be scheduled; repeat the request to complete it.", {
        retryable: true,
        retryAfterSeconds: 5,
        cause: error,
      });
    }
  }
}
