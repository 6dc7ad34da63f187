import { SubmissionRpc, type SubmitterSubmittingParts } from "@dormant/authority-client";
import type { RpcContext } from "@dormant/bus";
import {
  AppError,
  type ResolveRegistryAccountsRequest,
  type ResolveRegistryAccountsResponse,
  type SubmitRegistryAccountsRequest,
  type SubmitRegistryAccountsResponse,
} from "@dormant/contracts";
import { buildAccountsSubmission, GovTalkInputError, isDuplicateSubmissionError, newTransactionId } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { RegistrySubmitterConfig } from "./env.ts";
import { findSubmittedAccounts } from "./find-submission.ts";
import { openAccountsCredentials } from "./open-credentials.ts";
import type { RegistryGateway, SubmitAnswer } from "./registry-gateway.ts";

export interface AccountsSubmitterDeps extends SubmitterSubmittingParts<SubmitRegistryAccountsResponse> {
  config: Pick<RegistrySubmitterConfig, "registry" | "breaker" | "pollGiveUpAfterSeconds" | "inDoubtSettleSeconds">;
  gateway: RegistryGateway;
}

/** Which accounts: the filing, its submission number and company. */
type AccountsRef = { filing_id: string; submission_number: string; company: { number: string } };

/**
 * `registry.submit_accounts`: builds the FormSubmission (presenter credentials from
 * configuration, the company authentication code from the sealed credentials), submits it at
 * most once (SubmissionRpc, submitOnce), and schedules the first status poll. An earlier attempt
 * in doubt (answer lost, worker died) is settled by asking the registry for its submission number
 * (GetSubmissionStatus), and sent again only if the registry does not have it.
 * `registry.resolve_accounts`: the same question for the filing service, without ever sending.
 */
export class AccountsSubmitter {
  private readonly rpc: SubmissionRpc<SubmitRegistryAccountsResponse>;

  constructor(private readonly deps: AccountsSubmitterDeps) {
    this.rpc = new SubmissionRpc({
      ...deps,
      subject: "accounts",
      failure: { unavailableCode: "REGISTRY_UNAVAILABLE", authority: "registry", repeatInDoubt: "safe" },
    });
  }

  /**
   * The accounts' submission: its id in the ledger (the filing), how to ask the registry about it
   * and its first status poll. An attempt in doubt is not repeated blindly: the registry is asked
   * for its submission number first (it would also refuse the number a second time, which
   * `acknowledged` takes as proof, but a second transmission is avoided).
   */
  private call(accounts: AccountsRef, logger: Logger, context: RpcContext) {
    const { submission_number: submissionNumber } = accounts;
    return {
      id: accounts.filing_id,
      lookup: findSubmittedAccounts({ submissionNumber, status: (number, options) => this.deps.gateway.status(number, options) }),
      followUp: (acknowledged: SubmitRegistryAccountsResponse) => this.scheduleFirstPoll(accounts, acknowledged, logger),
      signal: context.signal,
    };
  }

  resolve(request: ResolveRegistryAccountsRequest, context: RpcContext): Promise<ResolveRegistryAccountsResponse> {
    const logger = this.deps.logger.child({ filing_id: request.filing_id, submission_number: request.submission_number });
    const ref: AccountsRef = {
      filing_id: request.filing_id,
      submission_number: request.submission_number,
      company: { number: request.company_number },
    };
    return this.rpc.resolve(logger, this.call(ref, logger, context));
  }

  submit(request: SubmitRegistryAccountsRequest, context: RpcContext): Promise<SubmitRegistryAccountsResponse> {
    const logger = this.deps.logger.child({
      filing_id: request.filing_id,
      submission_number: request.submission_number,
      company_number: request.company.number,
    });
    return this.rpc.submit(logger, () => {
      const xml = this.buildMessage(request);
      return {
        ...this.call(request, logger, context),
        send: async () => this.acknowledged(request, await this.deps.gateway.submit(xml, context.signal), logger),
      };
    });
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
      if (error instanceof GovTalkInputError)
        throw new AppError("VALIDATION_ERROR", `the accounts submission could not be built: ${error.message}`, { retryable: false });
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
      logger.error(
        { summary },
        "the registry refused the presenter credentials: check REGISTRY_PRESENTER_ID / REGISTRY_PRESENTER_AUTH_CODE",
      );
      throw new AppError("INTERNAL_ERROR", "The registry refused the platform's presenter credentials.", { retryable: false });
    }
    if (kind === "business") {
      throw new AppError("VALIDATION_ERROR", `The registry refused the accounts: ${summary}`, {
        retryable: false,
        details: [{ field: "accounts", message: summary }],
      });
    }
    logger.error({ classification: kind, summary }, "the registry refused the submission we built");
    throw new AppError("INTERNAL_ERROR", `The registry refused the submission: ${summary}`, { retryable: false });
  }

  private scheduleFirstPoll(request: AccountsRef, response: SubmitRegistryAccountsResponse, logger: Logger): Promise<void> {
    const { pollIntervalSeconds } = this.deps.config.registry;
    return this.rpc.scheduleFirstPoll(
      {
        submittedAt: response.submitted_at,
        intervalSeconds: pollIntervalSeconds,
        publish: (first, delayMs) =>
          this.deps.bus.publish(
            "registry.poll_status",
            {
              filing_id: request.filing_id,
              submission_number: response.submission_number,
              company_number: request.company.number,
              poll_interval_seconds: pollIntervalSeconds,
              // Goes along to registry.status and registry.outcome, should this RPC's answer be lost.
              submitted_at: response.submitted_at,
              ...first,
            },
            { delayMs },
          ),
      },
      {
        logger,
        unscheduled: "submitted, but the first status poll could not be scheduled",
        message: "The accounts were submitted but their status polling could not be scheduled; repeat the request to complete it.",
      },
    );
  }
}
