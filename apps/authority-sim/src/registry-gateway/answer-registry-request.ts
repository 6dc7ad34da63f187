import {
  GovTalkXmlError,
  parseRegistryRequest,
  presenterCredentialsMatch,
  REGISTRY_AUTH_METHOD,
  REGISTRY_ENVELOPE_VERSION,
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

/**
 * Answers one message posted to the registry's XML gateway: a well-formed GovTalk 1.0 request
 * from the configured presenter (CHMD5 credentials), then the accounts FormSubmission or the
 * GetSubmissionStatus it carries.
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
  if (request.envelope.envelopeVersion !== REGISTRY_ENVELOPE_VERSION) return invalid(`EnvelopeVersion must be ${REGISTRY_ENVELOPE_VERSION}`, request);
  if (request.envelope.qualifier !== "request") return invalid("Qualifier must be request", request);

  const presenter = exchange.context.config.registry;
  const credentials = { senderId: request.senderId, authenticationValue: request.authenticationValue };
  if (request.authenticationMethod !== REGISTRY_AUTH_METHOD || !presenterCredentialsMatch(credentials, presenter)) {
    return {
      xml: registryError(exchange, request, REGISTRY_SIM_ERRORS.authorisationFailure()),
      received: {
        kind: kindOf(request),
        company: request.kind === "FormSubmission" ? request.form.companyNumber : request.companyNumber,
        submissionNumber: request.kind === "FormSubmission" ? request.form.submissionNumber : request.submissionNumber,
        answer: "error:502",
      },
    };
  }
  return request.kind === "FormSubmission" ? handleFormSubmission(request, exchange) : handleStatusRequest(request, exchange);
}
