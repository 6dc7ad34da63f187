import { AuthorityUnavailableError, postXml, readAuthorityAnswer, type AuthorityGatewayOptions } from "@dormant/authority-client";
import {
  buildCt600DataRequest,
  buildCt600DeleteMessage,
  buildCt600PollMessage,
  GovTalkXmlError,
  parseCt600DataResponse,
  parseCt600Response,
  type Ct600Acknowledgement,
  type Ct600DataResponse,
  type Ct600ErrorAnswer,
  type Ct600Response,
  type Ct600Success,
} from "@dormant/govtalk";

/** One breaker per endpoint: submissions, and polls with deletes (both go to the poll endpoint). */
export interface TaxGatewayOptions extends AuthorityGatewayOptions<"submission" | "poll"> {
  submissionUrl: string;
  pollUrl: string;
}

export type SubmitAnswer = Ct600Acknowledgement | Ct600ErrorAnswer;
export type PollAnswer = Ct600Acknowledgement | Ct600Success | Ct600ErrorAnswer;

/** The window of a DATA_REQUEST (absent: every submission the engine still holds for the sender). */
export interface SubmissionWindow {
  /** Only submissions from this instant on (the request's StartDate/StartTime, UK local time). */
  since?: Date | number;
  /** Only submissions up to this instant (EndDate/EndTime). */
  until?: Date | number;
}

const isGovTalkXmlError = (error: unknown): error is GovTalkXmlError => error instanceof GovTalkXmlError;

/**
 * Reads an answer; the authority's own system failures (1000 and the other transient errors)
 * and answers that are not its protocol become AuthorityUnavailableError (readAuthorityAnswer).
 */
function readAnswer(text: string, maybeReceived: boolean): Ct600Response {
  return readAuthorityAnswer(text, {
    parse: parseCt600Response,
    isMalformed: isGovTalkXmlError,
    authority: "the tax authority",
    maybeReceived,
  });
}

/** Reads a DATA_REQUEST answer; transient errors and non-GovTalk answers become AuthorityUnavailableError. */
function readDataAnswer(text: string): Ct600DataResponse {
  return readAuthorityAnswer(text, {
    parse: parseCt600DataResponse,
    isMalformed: isGovTalkXmlError,
    authority: "the tax authority",
    maybeReceived: false,
    notProtocol: "answered a data request with something else",
  });
}

function unexpected(what: string, answer: Ct600Response): AuthorityUnavailableError {
  return new AuthorityUnavailableError("authority_error", `the tax authority answered a ${what} with a ${answer.type}`, {
    maybeReceived: true,
  });
}

/**
 * Where to poll: the ResponseEndPoint the authority gave, if it is on the configured host (a
 * different host is never trusted with our traffic), else the configured poll URL.
 */
export function pollEndpoint(responseEndPoint: string | undefined, configuredPollUrl: string): string {
  if (!responseEndPoint) return configuredPollUrl;
  try {
    return new URL(responseEndPoint).origin === new URL(configuredPollUrl).origin ? responseEndPoint : configuredPollUrl;
  } catch {
    return configuredPollUrl;
  }
}

/** The tax authority's Transaction Engine, reached only through the breakers. */
export class TaxGateway {
  constructor(private readonly options: TaxGatewayOptions) {}

  get pollUrl(): string {
    return this.options.pollUrl;
  }

  /** Posts a built CT600 submission: its acknowledgement, or the error that refused it. */
  submit(xml: string, signal?: AbortSignal): Promise<SubmitAnswer> {
    return this.options.breakers.submission.run(
      async (callSignal) => {
        const answer = readAnswer(await postXml(this.options.submissionUrl, xml, callSignal), true);
        if (answer.type === "acknowledgement" || answer.type === "error") return answer;
        throw unexpected("submission", answer);
      },
      signal ? { signal } : {},
    );
  }

  /** Polls a submission: still pending (acknowledgement), accepted (success) or refused (error). */
  poll(correlationId: string, endpoint: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<PollAnswer> {
    const xml = buildCt600PollMessage({ correlationId, gatewayTest: this.options.gatewayTest });
    return this.options.breakers.poll.run(async (callSignal) => {
      const answer = readAnswer(await postXml(pollEndpoint(endpoint, this.options.pollUrl), xml, callSignal), false);
      if (answer.type === "deleted") throw unexpected("poll", answer);
      return answer;
    }, options);
  }

  /**
   * Asks the engine which submissions this sender made (DATA_REQUEST: `request`/`list`), so that
   * a part whose answer was lost can be recognised by its TransactionID instead of being sent
   * again. Posted to the submission endpoint (the engine routes on the message) through the
   * submission breaker: it is that endpoint's health, and a request that lists nothing changes
   * nothing, so it is safe to repeat. The engine's own failures (1000 and the other transient
   * errors), answers that are not GovTalk, HTTP 5xx/429 and HMRC's edge 403 reject with
   * AuthorityUnavailableError (retry later). The answer: `{ type: "list", records }` (each
   * record's CorrelationID, TransactionID, TimeStamp and Status), or the engine's refusal,
   * `{ type: "error", errors, classification }` (1046 credentials refused: classification.kind
   * "authentication"; a protocol error). The password is only in the message sent.
   */
  listSubmissions(
    credentials: { senderId: string; password: string },
    signal?: AbortSignal,
    window: SubmissionWindow = {},
  ): Promise<Ct600DataResponse> {
    const { xml } = buildCt600DataRequest({
      senderId: credentials.senderId,
      password: credentials.password,
      gatewayTest: this.options.gatewayTest,
      ...(window.since === undefined ? {} : { startTimeStamp: window.since }),
      ...(window.until === undefined ? {} : { endTimeStamp: window.until }),
    });
    return this.options.breakers.submission.run(
      async (callSignal) => readDataAnswer(await postXml(this.options.submissionUrl, xml, callSignal)),
      signal ? { signal } : {},
    );
  }

  /** Clears a finished submission from the engine; error 2000 means it was already gone. */
  delete(correlationId: string, endpoint: string, signal?: AbortSignal): Promise<"deleted" | "already_gone"> {
    const xml = buildCt600DeleteMessage({ correlationId, gatewayTest: this.options.gatewayTest });
    return this.options.breakers.poll.run(
      async (callSignal) => {
        const answer = readAnswer(await postXml(pollEndpoint(endpoint, this.options.pollUrl), xml, callSignal), false);
        if (answer.type === "deleted") return "deleted";
        if (answer.type === "error" && answer.errors.some((error) => error.number === 2000)) return "already_gone";
        throw new Error(
          `the tax authority refused to delete ${correlationId}: ${answer.type === "error" ? answer.classification.summary : answer.type}`,
        );
      },
      signal ? { signal } : {},
    );
  }
}
