import { buildCt600DeleteResponse, type Ct600DeleteRequest } from "@dormant/govtalk";
import { londonDateTime } from "./london-time.ts";
import { unknownCorrelation } from "./tax-answers.ts";
import type { TaxAnswer, TaxExchange } from "./tax-exchange.ts";

/** A delete: clears the submission; an unknown (or already deleted) CorrelationID -> 2000. */
export function handleDelete(request: Ct600DeleteRequest, exchange: TaxExchange): TaxAnswer {
  const submission = exchange.context.taxSubmissions.get(request.correlationId ?? "");
  if (!submission) return unknownCorrelation(exchange, request);
  const received = { kind: "delete", company: submission.companyNumber, correlationId: submission.correlationId };
  if (submission.outcome.kind === "no-answer") return { hang: true, received: { ...received, answer: "no-answer" } };
  exchange.context.taxSubmissions.delete(submission.correlationId);
  return {
    xml: buildCt600DeleteResponse({ correlationId: submission.correlationId, gatewayTimestamp: londonDateTime(exchange.now) }),
    received: { ...received, answer: "deleted" },
  };
}
