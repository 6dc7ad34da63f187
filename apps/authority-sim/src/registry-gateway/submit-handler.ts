import { buildAccountsSubmissionAcknowledgement, type RegistryFormSubmissionRequest } from "@dormant/govtalk";
import { AUTH_CODE_INVALID, type RegistryOutcome, type Scenario } from "../sandbox/scenarios.ts";
import { registryError } from "./registry-answers.ts";
import type { RegistryAnswer, RegistryExchange } from "./registry-exchange.ts";
import { REGISTRY_SIM_ERRORS } from "./registry-errors.ts";
import type { RegistrySubmission } from "./registry-submission.ts";
import { validateForm } from "./validate-form.ts";

/**
 * The company authentication code rule: the refused code (default 000000), or a code with
 * lower-case letters (real codes are upper case and compared case-sensitively), is rejected as
 * invalid at examination, whatever the company.
 */
function decideRegistryOutcome(scenario: Scenario, authCode: string, refusedCode: string): RegistryOutcome {
  if (scenario.registry.kind === "no-answer") return scenario.registry;
  if (authCode === refusedCode || authCode !== authCode.toUpperCase()) return { kind: "reject", rejections: [AUTH_CODE_INVALID] };
  return scenario.registry;
}

/**
 * An accounts FormSubmission: the gateway checks the form and the document at once (errors
 * answered immediately), refuses a SubmissionNumber used before (9999 "Invalid Envelope
 * Number", as the real gateway answers), then acknowledges; the
 * outcome is read later with GetSubmissionStatus.
 */
export function handleFormSubmission(request: RegistryFormSubmissionRequest, exchange: RegistryExchange): RegistryAnswer {
  const { context } = exchange;
  const company = request.form.companyNumber;
  const submissionNumber = request.form.submissionNumber;
  const checked = validateForm(request, exchange.outline);
  if ("error" in checked) {
    return {
      xml: registryError(exchange, request, checked.error),
      received: { kind: "submit", company, submissionNumber, answer: `error:${checked.error.number}` },
    };
  }
  const { form } = checked;
  if (context.registrySubmissions.has(form.submissionNumber)) {
    const error = REGISTRY_SIM_ERRORS.duplicateSubmission();
    return {
      xml: registryError(exchange, request, error),
      received: { kind: "submit", company, submissionNumber, answer: `error:${error.number}` },
    };
  }
  const scenario = context.decisionTable.scenarioFor(form.companyNumber);
  const delay = context.timing.current.outcomeDelayMs;
  const readyAt = exchange.now + (scenario.immediate ? 0 : delay);
  const submission: RegistrySubmission = {
    submissionNumber: form.submissionNumber,
    companyNumber: form.companyNumber,
    readyAt,
    parkedUntil: readyAt + delay,
    outcome: decideRegistryOutcome(scenario, form.companyAuthCode, context.config.registry.refusedCompanyAuthCode),
  };
  context.registrySubmissions.set(submission.submissionNumber, submission);
  return {
    xml: buildAccountsSubmissionAcknowledgement({
      transactionId: request.transactionId ?? "",
      gatewayTest: request.gatewayTest,
      gatewayTimestamp: new Date(exchange.now).toISOString(),
    }),
    received: { kind: "submit", company, submissionNumber, answer: "acknowledgement" },
  };
}
