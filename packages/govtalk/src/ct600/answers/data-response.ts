import { serializeMessage, startGovTalkMessage } from "../../envelope/write-envelope.ts";
import { CT600_CLASS } from "../constants.ts";

export interface Ct600DataResponseInput {
  senderId: string;
  /** `dd/mm/yyyy hh:mm:ss` (formatGovTalkTimeStamp): the window the list covers. */
  startTimeStamp: string;
  endTimeStamp: string;
  records: readonly { timestamp: string; correlationId: string; transactionId?: string | undefined; status: string }[];
  /** The request's TransactionID, echoed (as in the Gift Aid answer of testdata/hmrc). */
  transactionId?: string | undefined;
  /** `ResponseEndPoint` with its PollInterval (the Gift Aid answer carries the poll endpoint). */
  responseEndPoint?: { url: string; pollIntervalSeconds?: number };
  gatewayTest?: boolean;
  gatewayTimestamp?: string;
}

/**
 * The transaction engine's answer to a DATA_REQUEST: `Qualifier response`, `Function list`,
 * Body `StatusReport` {SenderID, StartTimeStamp, EndTimeStamp, StatusRecord* {TimeStamp,
 * CorrelationID, TransactionID, Status}}, in the envelope's namespace, shaped as the Gift Aid
 * answer of HMRC's development gateway (testdata/hmrc/gift-aid-data-request-response.xml), with
 * the request's TransactionID and the poll endpoint; parseCt600DataResponse reads any namespace.
 */
export function buildCt600DataResponse(input: Ct600DataResponseInput): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "response",
    function: "list",
    ...(input.transactionId ? { transactionId: input.transactionId } : {}),
    correlationId: "",
    ...(input.responseEndPoint ? { responseEndPoint: input.responseEndPoint } : {}),
    transformation: "XML",
    ...(input.gatewayTest === undefined ? {} : { gatewayTest: input.gatewayTest }),
    gatewayTimestamp: input.gatewayTimestamp ?? "",
  });
  root.ele("GovTalkDetails").ele("Keys");
  const report = root.ele("Body").ele("StatusReport");
  report.ele("SenderID").txt(input.senderId);
  report.ele("StartTimeStamp").txt(input.startTimeStamp);
  report.ele("EndTimeStamp").txt(input.endTimeStamp);
  for (const record of input.records) {
    const element = report.ele("StatusRecord");
    element.ele("TimeStamp").txt(record.timestamp);
    element.ele("CorrelationID").txt(record.correlationId);
    element.ele("TransactionID").txt(record.transactionId ?? "");
    element.ele("Status").txt(record.status);
  }
  return serializeMessage(document);
}
