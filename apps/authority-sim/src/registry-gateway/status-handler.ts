import { buildSubmissionStatusResponse, type RegistryStatusRequest, type SubmissionStatusInput } from "@dormant/govtalk";
import { registryError } from "./registry-answers.ts";
import type { RegistryAnswer, RegistryExchange } from "./registry-exchange.ts";
import { REGISTRY_SIM_ERRORS } from "./registry-errors.ts";
import { statusAt, type RegistrySubmission } from "./registry-submission.ts";

function selectSubmissions(request: RegistryStatusRequest, exchange: RegistryExchange): RegistrySubmission[] {
  const submissions = exchange.context.registrySubmissions;
  if (request.submissionNumber) {
    const submission = submissions.get(request.submissionNumber);
    return submission ? [submission] : [];
  }
  return [...submissions.values()].filter((submission) => submission.companyNumber === request.companyNumber);
}

/**
 * GetSubmissionStatus by SubmissionNumber, or by CompanyNumber (every submission of that
 * company), for the authenticated presenter. Unknown numbers give an empty SubmissionStatus.
 * If the registry is silent about any selected submission, the whole request goes unanswered.
 */
export function handleStatusRequest(request: RegistryStatusRequest, exchange: RegistryExchange): RegistryAnswer {
  const { submissionNumber, companyNumber } = request;
  if (!submissionNumber && !companyNumber) {
    const error = REGISTRY_SIM_ERRORS.invalidRequest("GetSubmissionStatus needs a SubmissionNumber or a CompanyNumber");
    return { xml: registryError(exchange, request, error), received: { kind: "status", answer: `error:${error.number}` } };
  }
  if (request.presenterId !== exchange.context.config.registry.presenterId) {
    const error = REGISTRY_SIM_ERRORS.authorisationFailure();
    return {
      xml: registryError(exchange, request, error),
      received: { kind: "status", company: companyNumber, submissionNumber, answer: "error:502" },
    };
  }
  const selected = selectSubmissions(request, exchange);
  const company = companyNumber ?? selected[0]?.companyNumber;
  const statuses = selected.map((submission) => statusAt(submission, exchange.now));
  if (statuses.some((status) => status === undefined)) {
    return { hang: true, received: { kind: "status", company, submissionNumber, answer: "no-answer" } };
  }
  const answered = statuses as SubmissionStatusInput[];
  return {
    xml: buildSubmissionStatusResponse({
      transactionId: request.transactionId ?? "",
      gatewayTest: request.gatewayTest,
      gatewayTimestamp: new Date(exchange.now).toISOString(),
      statuses: answered,
    }),
    received: {
      kind: "status",
      company,
      submissionNumber,
      answer: answered.length === 0 ? "none" : answered.map((status) => status.statusCode).join(","),
    },
  };
}
