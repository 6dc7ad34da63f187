import {
  GovTalkXmlError,
  parseRegistryRequest,
  presenterCredentialsMatch,
  REGISTRY_AUTH_METHODS,
  REGISTRY_ENVELOPE_VERSION,
  type GovTalkErrorInput,
  type RegistryRequest,
} from "@dormant/govtalk";
import { declaresDoctype } from "../xml/xml-body.ts";
import { registryError } from "./registry-answers.ts";
import type { RegistryAnswer, RegistryExchange } from "./registry-exchange.ts";
import { REGISTRY_SIM_ERRORS } from "./registry-errors.ts";
import { handleStatusRequest } from "./status-handler.ts";
import { handleFormSubmission } from "./submit-handler.ts";

function kindOf(request: RegistryRequest): string {
  return request.kind === "FormSubmission" ? "submit" : "status";
}

/** `Authentication/Method` values taken: `clear` and `CHMD5`, each with MD5 hex values. */
function isAcceptedMethod(method: string | undefined): boolean {
  return method !== undefined && (REGISTRY_AUTH_METHODS as readonly string[]).includes(method);
}

/** GatewayTest absent, 0 or 1 (xsd:integer in the envelope schema; only 0 and 1 select a mode). */
function isValidTestMode(text: string | undefined): boolean {
  return text === undefined || text === "0" || text === "1";
}

/** A refusal of a request read in full, recorded with its company and submission number. */
function refusal(exchange: RegistryExchange, request: RegistryRequest, error: GovTalkErrorInput, answer: string): RegistryAnswer {
  return {
    xml: registryError(exchange, request, error),
    received: {
      kind: kindOf(request),
      company: request.kind === "FormSubmission" ? request.form.companyNumber : request.companyNumber,
      submissionNumber: request.kind === "FormSubmission" ? request.form.submissionNumber : request.submissionNumber,
      answer,
    },
  };
}

/**
 * Answers one message posted to the registry's XML gateway: a well-formed GovTalk 1.0 request
 * from the configured presenter (Method `clear` or `CHMD5`, SenderID and Value the MD5 hex of
 * the presenter ID and authentication code), with a valid test mode, then the accounts
 * FormSubmission or the GetSubmissionStatus it carries.
 */
export function answerRegistryRequest(xml: string, exchange: RegistryExchange): RegistryAnswer {
  const invalid = (reason: string, request?: RegistryRequest): RegistryAnswer => ({
    xml: registryError(exchange, request, REGISTRY_SIM_ERRORS.invalidRequest(reason)),
    received: { kind: request ? kindOf(request) : "unknown", answer: "error:100" },
  });
  if (xml.trim() === "") return invalid("the message is empty");
  if (declaresDoctype(xml)) return invalid("a DOCTYPE or entity declaration is not allowed");
  let request: RegistryRequest;
  try {
    request = parseRegistryRequest(xml);
  } catch (error) {
    if (error instanceof GovTalkXmlError) return invalid(error.message);
    throw error;
  }
  if (request.envelope.envelopeVersion !== REGISTRY_ENVELOPE_VERSION)
    return invalid(`EnvelopeVersion must be ${REGISTRY_ENVELOPE_VERSION}`, request);
  if (request.envelope.qualifier !== "request") return invalid("Qualifier must be request", request);

  const presenter = exchange.context.config.registry;
  const credentials = { senderId: request.senderId, authenticationValue: request.authenticationValue };
  if (!isAcceptedMethod(request.authenticationMethod) || !presenterCredentialsMatch(credentials, presenter)) {
    return refusal(exchange, request, REGISTRY_SIM_ERRORS.authorisationFailure(), "error:502");
  }
  if (!isValidTestMode(request.gatewayTestText)) {
    return refusal(exchange, request, REGISTRY_SIM_ERRORS.invalidTestMode(), "error:100");
  }
  return request.kind === "FormSubmission" ? handleFormSubmission(request, exchange) : handleStatusRequest(request, exchange);
}
