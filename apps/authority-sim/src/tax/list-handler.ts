import {
  buildCt600DataResponse,
  DATA_REQUEST_STATUS,
  formatGovTalkTimeStamp,
  taxError,
  type Ct600DataRequest,
  type DataRequestStatus,
} from "@dormant/govtalk";
import { TAX_PATHS } from "../authority-paths.ts";
import { londonDateTime } from "./london-time.ts";
import { refusedSender } from "./sender-authentication.ts";
import { taxErrorAnswer } from "./tax-answers.ts";
import type { TaxAnswer, TaxExchange } from "./tax-exchange.ts";
import type { TaxSubmission } from "./tax-submission.ts";

/** What a listed submission's `Status` says at `now` (the poll gives the answer itself). */
function statusAt(submission: TaxSubmission, now: number): DataRequestStatus {
  const { outcome } = submission;
  if (now < submission.readyAt || outcome.kind === "no-answer") return DATA_REQUEST_STATUS.acknowledged;
  return outcome.kind === "accept" ? DATA_REQUEST_STATUS.response : DATA_REQUEST_STATUS.error;
}

/**
 * A DATA_REQUEST (`Qualifier request`, `Function list`): the sender is authenticated exactly as
 * for a submission (1046/1047), a CorrelationID is refused (1020), then the answer lists every
 * submission of that SenderID the engine still holds (not deleted, not evicted) in the window
 * asked for, oldest first: whatever its state, including one whose answer was lost. Without a
 * StartDate the window starts at the first submission held; without an EndDate it ends now.
 * Each record's Status says where the submission stands (DATA_REQUEST_STATUS); its answer is
 * read by polling its CorrelationID.
 */
export async function handleList(request: Ct600DataRequest, exchange: TaxExchange): Promise<TaxAnswer> {
  const { context, now } = exchange;
  const refuse = (number: 1020 | 1046 | 1047): TaxAnswer => ({
    xml: taxErrorAnswer(exchange, [taxError(number)], { function: "list", ...(number === 1020 ? {} : { class: "UndefinedClass" }) }),
    received: { kind: "list", answer: `error:${number}` },
  });
  if (request.correlationId !== undefined && request.correlationId !== "") return refuse(1020);
  const refused = refusedSender(request, context.config.tax.refusedCredential);
  if (refused) return refuse(refused);

  const senderId = request.senderId ?? "";
  const held = [...context.taxSubmissions.values()].filter((submission) => submission.senderId === senderId);
  const start = request.start?.at ?? held.reduce((earliest, submission) => Math.min(earliest, submission.receivedAt), now);
  // Time stamps have whole seconds: the end covers its whole second.
  const end = request.end?.at === undefined ? now : request.end.at + 999;
  const listed = held
    .filter((submission) => submission.receivedAt >= start && submission.receivedAt <= end)
    .sort((a, b) => a.receivedAt - b.receivedAt);
  // A decided submission's status is its final outcome: wait for the back end's checks, as a poll does.
  await Promise.all(listed.filter((submission) => now >= submission.readyAt).map((submission) => submission.checked));
  return {
    xml: buildCt600DataResponse({
      senderId,
      startTimeStamp: request.start?.text ?? formatGovTalkTimeStamp(start),
      endTimeStamp: request.end?.text ?? formatGovTalkTimeStamp(end),
      records: listed.map((submission) => ({
        timestamp: formatGovTalkTimeStamp(submission.receivedAt),
        correlationId: submission.correlationId,
        transactionId: submission.transactionId,
        status: statusAt(submission, now),
      })),
      transactionId: request.envelope.transactionId,
      responseEndPoint: { url: `${exchange.baseUrl}${TAX_PATHS.poll}`, pollIntervalSeconds: context.timing.current.pollIntervalSeconds },
      gatewayTest: request.gatewayTest,
      gatewayTimestamp: londonDateTime(now),
    }),
    received: { kind: "list", answer: `response:${listed.length}` },
  };
}
