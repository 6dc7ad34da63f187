import { randomBytes } from "node:crypto";
import { buildCt600Acknowledgement, taxError, type Ct600SubmitRequest } from "@dormant/govtalk";
import { TAX_PATHS } from "../authority-paths.ts";
import { backEndChecks } from "./back-end-checks.ts";
import { londonDateTime } from "./london-time.ts";
import { refusedSender } from "./sender-authentication.ts";
import { taxErrorAnswer } from "./tax-answers.ts";
import type { TaxAnswer, TaxExchange } from "./tax-exchange.ts";
import { decideTaxOutcome, type TaxSubmission } from "./tax-submission.ts";

/** A new CorrelationID: 32 upper-case hexadecimal digits. */
function newCorrelationId(): string {
  return randomBytes(16).toString("hex").toUpperCase();
}

/**
 * A CT600 submission: the Transaction Engine's own checks (CorrelationID, credentials) answered at
 * once, then an acknowledgement. The back end's checks (CT schema, IRmark, business rules) start
 * in the background; their failure, or else the company's scenario, is the answer to a poll once
 * the outcome is ready. `xml` is the message as received (HMRC's rules read the whole message).
 */
export async function handleSubmit(request: Ct600SubmitRequest, exchange: TaxExchange, xml: string): Promise<TaxAnswer> {
  const { context } = exchange;
  const company = request.return.companyNumber;
  const refuse = (number: Parameters<typeof taxError>[0], overrides: Parameters<typeof taxError>[1] = {}, cls?: string): TaxAnswer => ({
    xml: taxErrorAnswer(exchange, [taxError(number, overrides)], cls === undefined ? {} : { class: cls }),
    received: { kind: "submit", company, irmark: request.declaredIRmark, answer: `error:${number}` },
  });

  if (request.correlationId !== undefined && request.correlationId !== "") return refuse(1020);

  const refusedAuthentication = refusedSender(request, context.config.tax.refusedCredential);
  if (refusedAuthentication) return refuse(refusedAuthentication, {}, "UndefinedClass");

  const scenario = context.decisionTable.scenarioFor(company ?? "");
  const acceptedAt = context.now();
  const submission: TaxSubmission = {
    correlationId: newCorrelationId(),
    companyNumber: company,
    utr: request.return.reference ?? request.utrKey,
    irmark: request.computedIRmark,
    senderId: request.senderId,
    transactionId: request.envelope.transactionId || undefined,
    receivedAt: acceptedAt,
    readyAt: acceptedAt + (scenario.immediate ? 0 : context.timing.current.outcomeDelayMs),
    outcome: scenario.tax,
    checked: Promise.resolve(),
  };
  submission.checked = backEndChecks(request, xml, context).then(
    (backEnd) => {
      submission.outcome = decideTaxOutcome(scenario.tax, backEnd);
    },
    (error: unknown) => {
      // The simulator could not check the return (xsltproc missing or failing): the back end's
      // "system failure", which the submitter retries, rather than an acceptance it never checked.
      context.logger?.error({ err: error, correlation_id: submission.correlationId }, "the back-end checks of a CT600 failed");
      submission.outcome = decideTaxOutcome(scenario.tax, { kind: "error", number: 1000 });
    },
  );
  context.taxSubmissions.set(submission.correlationId, submission);
  return {
    xml: buildCt600Acknowledgement({
      correlationId: submission.correlationId,
      pollIntervalSeconds: context.timing.current.pollIntervalSeconds,
      responseEndPoint: `${exchange.baseUrl}${TAX_PATHS.poll}`,
      gatewayTimestamp: londonDateTime(exchange.now),
    }),
    received: {
      kind: "submit",
      company,
      correlationId: submission.correlationId,
      irmark: submission.irmark.base64,
      answer: "acknowledgement",
    },
  };
}
