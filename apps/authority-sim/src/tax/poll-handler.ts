import { buildCt600Acknowledgement, type Ct600PollRequest } from "@dormant/govtalk";
import { TAX_PATHS } from "../authority-paths.ts";
import { londonDateTime } from "./london-time.ts";
import { finalTaxAnswer, unknownCorrelation } from "./tax-answers.ts";
import type { TaxAnswer, TaxExchange } from "./tax-exchange.ts";

/**
 * A poll: unknown CorrelationID -> 2000; outcome not ready -> the acknowledgement again
 * (pending); ready -> the success response or the error (the back end's checks are awaited:
 * a child process, never blocking), as often as it is polled until deleted.
 */
export async function handlePoll(request: Ct600PollRequest, exchange: TaxExchange): Promise<TaxAnswer> {
  const submission = exchange.context.taxSubmissions.get(request.correlationId ?? "");
  if (!submission) return unknownCorrelation(exchange, request);
  if (exchange.now >= submission.readyAt) await submission.checked;
  const received = { kind: "poll", company: submission.companyNumber, correlationId: submission.correlationId };
  if (submission.outcome.kind === "no-answer") return { hang: true, received: { ...received, answer: "no-answer" } };
  if (exchange.now < submission.readyAt) {
    return {
      xml: buildCt600Acknowledgement({
        correlationId: submission.correlationId,
        pollIntervalSeconds: exchange.context.timing.current.pollIntervalSeconds,
        responseEndPoint: `${exchange.baseUrl}${TAX_PATHS.poll}`,
        gatewayTimestamp: londonDateTime(exchange.now),
      }),
      received: { ...received, answer: "acknowledgement" },
    };
  }
  const final = finalTaxAnswer(exchange, submission);
  if (!final) return { hang: true, received: { ...received, answer: "no-answer" } };
  return { xml: final.xml, received: { ...received, answer: final.answer } };
}
