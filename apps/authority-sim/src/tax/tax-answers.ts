import {
  buildCt600ErrorResponse,
  type Ct600DeleteRequest,
  type Ct600PollRequest,
  buildCt600SuccessResponse,
  taxError,
  taxRuleError,
  type GovTalkErrorInput,
} from "@dormant/govtalk";
import { TAX_PATHS } from "../authority-paths.ts";
import { londonDateTime } from "./london-time.ts";
import type { TaxAnswer, TaxExchange } from "./tax-exchange.ts";
import type { TaxSubmission } from "./tax-submission.ts";

/** A GovTalk `error` answer to a submission, a poll or a delete. */
export function taxErrorAnswer(
  exchange: TaxExchange,
  errors: GovTalkErrorInput[],
  options: { correlationId?: string; function?: "submit" | "delete" | "list"; class?: string; details?: GovTalkErrorInput[] } = {},
): string {
  const endPoint = options.correlationId ? TAX_PATHS.poll : TAX_PATHS.submission;
  return buildCt600ErrorResponse({
    errors,
    correlationId: options.correlationId ?? "",
    function: options.function ?? "submit",
    ...(options.class !== undefined ? { class: options.class } : {}),
    ...(options.details !== undefined ? { details: options.details } : {}),
    responseEndPoint: `${exchange.baseUrl}${endPoint}`,
    pollIntervalSeconds: exchange.context.timing.current.pollIntervalSeconds,
    gatewayTimestamp: londonDateTime(exchange.now),
  });
}

/** The final answer to a poll once the outcome is ready; undefined for a silent outcome. */
export function finalTaxAnswer(exchange: TaxExchange, submission: TaxSubmission): { xml: string; answer: string } | undefined {
  const { outcome, correlationId } = submission;
  switch (outcome.kind) {
    case "accept":
      return {
        answer: "response",
        xml: buildCt600SuccessResponse({
          correlationId,
          irmark: submission.irmark.base64,
          utr: submission.utr ?? "",
          acceptedTime: londonDateTime(submission.readyAt),
          responseEndPoint: `${exchange.baseUrl}${TAX_PATHS.poll}`,
          pollIntervalSeconds: exchange.context.timing.current.pollIntervalSeconds,
          gatewayTimestamp: londonDateTime(exchange.now),
        }),
      };
    case "business-errors":
      return {
        answer: "error:3001",
        xml: taxErrorAnswer(exchange, [taxError(3001)], {
          correlationId,
          details: outcome.rules.map((rule) => ({
            ...taxRuleError(rule.number, rule.text, rule.location),
            ...(rule.type === undefined ? {} : { type: rule.type }),
          })),
        }),
      };
    case "error":
      return {
        answer: `error:${outcome.number}`,
        xml: taxErrorAnswer(exchange, [taxError(outcome.number, outcome.text === undefined ? {} : { text: outcome.text })], {
          correlationId,
        }),
      };
    case "no-answer":
      return undefined;
  }
}

/** Error 2000: the CorrelationID of a poll or delete is unknown (never issued, or deleted). */
export function unknownCorrelation(exchange: TaxExchange, request: Ct600PollRequest | Ct600DeleteRequest): TaxAnswer {
  const correlationId = request.correlationId ?? "";
  return {
    xml: taxErrorAnswer(exchange, [taxError(2000)], {
      correlationId,
      function: request.kind === "delete" ? "delete" : "submit",
    }),
    received: { kind: request.kind, correlationId, answer: "error:2000" },
  };
}
