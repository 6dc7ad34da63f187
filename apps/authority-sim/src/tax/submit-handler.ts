import { randomBytes } from "node:crypto";
import { buildCt600Acknowledgement, taxError, type Ct600SubmitRequest } from "@dormant/govtalk";
import { TAX_PATHS } from "../paths.ts";
import { irenvelopeText } from "./ct-schema-check.ts";
import { londonDateTime } from "./london-time.ts";
import { taxErrorAnswer } from "./tax-answers.ts";
import type { TaxAnswer, TaxExchange } from "./tax-exchange.ts";
import { businessRuleErrors, decideTaxOutcome, type TaxSubmission } from "./tax-submission.ts";

/** A new CorrelationID: 32 upper-case hexadecimal digits. */
function newCorrelationId(): string {
  return randomBytes(16).toString("hex").toUpperCase();
}

function firstLine(text: string): string {
  return text.split("\n")[0]?.trim() ?? text;
}

/**
 * A CT600 submission: the synchronous checks in the transaction engine's order (CorrelationID,
 * credentials, CT schema, IRmark), then an acknowledgement; the outcome comes at a later poll.
 */
export async function handleSubmit(request: Ct600SubmitRequest, exchange: TaxExchange): Promise<TaxAnswer> {
  const { context } = exchange;
  const company = request.return.companyNumber;
  const refuse = (number: Parameters<typeof taxError>[0], overrides: Parameters<typeof taxError>[1] = {}, cls?: string): TaxAnswer => ({
    xml: taxErrorAnswer(exchange, [taxError(number, overrides)], cls === undefined ? {} : { class: cls }),
    received: { kind: "submit", company, irmark: request.declaredIRmark, answer: `error:${number}` },
  });

  if (request.correlationId !== undefined && request.correlationId !== "") return refuse(1020);

  const auth = request.authentication;
  if (auth && auth.method.toUpperCase() === "MD5") return refuse(1047, {}, "UndefinedClass");
  const refused = context.config.tax.refusedCredential;
  if (!auth || auth.method !== "clear" || !request.senderId || auth.value === "" || request.senderId === refused || auth.value === refused) {
    return refuse(1046, {}, "UndefinedClass");
  }

  const irenvelope = irenvelopeText(request.envelope.body);
  if (!irenvelope) return refuse(1001, { text: `${taxError(1001).text} The Body has no IRenvelope.` });
  const schema = await context.ctSchema.validate(irenvelope);
  if (!schema.valid) {
    const detail = schema.errors.map(firstLine).slice(0, 3).join(" ");
    return refuse(1001, { text: `${taxError(1001).text} ${detail}`.trim() });
  }

  if (request.irmarkStatus === "missing") return refuse(2022);
  if (request.irmarkStatus === "incorrect") return refuse(2021);

  const scenario = context.outcomes.scenarioFor(company ?? "");
  const acceptedAt = context.now();
  const submission: TaxSubmission = {
    correlationId: newCorrelationId(),
    companyNumber: company,
    utr: request.return.reference ?? request.utrKey,
    irmark: request.computedIRmark,
    readyAt: acceptedAt + (scenario.immediate ? 0 : context.timing.current.outcomeDelayMs),
    outcome: decideTaxOutcome(scenario.tax, businessRuleErrors(request)),
  };
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
