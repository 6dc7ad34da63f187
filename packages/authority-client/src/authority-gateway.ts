import type { AuthorityBreaker } from "./authority-breaker.ts";
import { AuthorityUnavailableError } from "./errors.ts";

/** What every worker's gateway is built with: the test-service flag and one breaker per endpoint or message class. */
export interface AuthorityGatewayOptions<B extends string> {
  /** GatewayTest 1: the authority's test service. */
  gatewayTest: boolean;
  breakers: Record<B, AuthorityBreaker>;
}

/** A parsed answer: a refusal (`type: "error"`) carries the classification of its errors. */
export interface ClassifiedAnswer {
  type: string;
  classification?: { kind: string; summary: string };
}

export interface ReadAnswerOptions<A> {
  /** The protocol's parser (throws on text that is not the protocol). */
  parse(text: string): A;
  /** Whether an error of `parse` means "not the protocol" (GovTalkXmlError); others are rethrown. */
  isMalformed(error: unknown): error is Error;
  /** The authority, as messages name it ("the tax authority", "the registry"). */
  authority: string;
  /** Whether what was posted may have reached the authority (a submission): kept on an answer that is not the protocol. */
  maybeReceived: boolean;
  /** What the authority did instead of answering (default "answered something that is not GovTalk"). */
  notProtocol?: string;
}

/**
 * Reads an authority's answer. The authority's own failures (a refusal classified `transient`)
 * and answers that are not its protocol become AuthorityUnavailableError ("authority_error"), so
 * the breaker counts them and callers treat them like an outage; anything else is the answer.
 */
export function readAuthorityAnswer<A extends ClassifiedAnswer>(text: string, options: ReadAnswerOptions<A>): A {
  let answer: A;
  try {
    answer = options.parse(text);
  } catch (error) {
    if (!options.isMalformed(error)) throw error;
    const notProtocol = options.notProtocol ?? "answered something that is not GovTalk";
    throw new AuthorityUnavailableError("authority_error", `${options.authority} ${notProtocol}: ${error.message}`, {
      maybeReceived: options.maybeReceived,
      cause: error,
    });
  }
  if (answer.type === "error" && answer.classification?.kind === "transient") {
    throw new AuthorityUnavailableError("authority_error", `${options.authority} failed: ${answer.classification.summary}`, {
      maybeReceived: false,
    });
  }
  return answer;
}
