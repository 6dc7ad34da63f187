import { postXml, readAuthorityAnswer, type AuthorityGatewayOptions } from "@dormant/authority-client";
import {
  createSubmissionStatusRequestBuilder,
  GovTalkXmlError,
  newTransactionId,
  parseAccountsSubmissionResponse,
  parseSubmissionStatusResponse,
  type RegistryErrorAnswer,
  type RegistryPresenter,
  type RegistryStatusAnswer,
  type RegistrySubmitAcknowledgement,
} from "@dormant/govtalk";

/**
 * The gateway is one URL, but a breaker per message class: status polls that go unanswered for
 * one submission must not stop new submissions, and the other way round.
 */
export interface RegistryGatewayOptions extends AuthorityGatewayOptions<"submission" | "status"> {
  gatewayUrl: string;
  presenter: RegistryPresenter;
}

export type SubmitAnswer = RegistrySubmitAcknowledgement | RegistryErrorAnswer;
export type StatusAnswer = RegistryStatusAnswer | RegistryErrorAnswer;

/** Reads an answer; the gateway's own failures (recoverable errors) and non-GovTalk text count as unavailability (readAuthorityAnswer). */
function readAnswer<A extends SubmitAnswer | StatusAnswer>(parse: (xml: string) => A, text: string, maybeReceived: boolean): A {
  return readAuthorityAnswer(text, {
    parse,
    isMalformed: (error) => error instanceof GovTalkXmlError,
    authority: "the registry",
    maybeReceived,
  });
}

/** The registry's XML gateway, reached only through the breakers. */
export class RegistryGateway {
  /** Status requests for the configured presenter: serialised once, identifiers written in per poll. */
  private readonly statusRequest: ReturnType<typeof createSubmissionStatusRequestBuilder>;

  constructor(private readonly options: RegistryGatewayOptions) {
    this.statusRequest = createSubmissionStatusRequestBuilder({ presenter: options.presenter, gatewayTest: options.gatewayTest });
  }

  /** Posts a built accounts submission: the acknowledgement, or the errors that refused it. */
  submit(xml: string, signal?: AbortSignal): Promise<SubmitAnswer> {
    return this.options.breakers.submission.run(
      async (callSignal) => readAnswer(parseAccountsSubmissionResponse, await postXml(this.options.gatewayUrl, xml, callSignal), true),
      signal ? { signal } : {},
    );
  }

  /** GetSubmissionStatus for one submission number. */
  status(submissionNumber: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<StatusAnswer> {
    const xml = this.statusRequest({ transactionId: newTransactionId(), submissionNumber });
    return this.options.breakers.status.run(
      async (callSignal) => readAnswer(parseSubmissionStatusResponse, await postXml(this.options.gatewayUrl, xml, callSignal), false),
      options,
    );
  }
}
