import type { Element } from "@xmldom/xmldom";
import { readErrors, readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkXmlError } from "../errors.ts";
import { childElement, childElements, textOf } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { classifyGovTalkErrors } from "./classify-errors.ts";
import type { Ct600ErrorAnswer } from "./parse-response.ts";

/** One submission the engine lists (`StatusReport/StatusRecord`). */
export interface Ct600DataRecord {
  correlationId: string;
  /** The `TransactionID` the submission carried (absent when it carried none). */
  transactionId: string | undefined;
  /** `TimeStamp` as sent: `dd/mm/yyyy hh:mm:ss`, UK local time (parseGovTalkTimeStamp reads it). */
  timestamp: string;
  /** `Status` as sent (see DATA_REQUEST_STATUS for the values known here). */
  status: string;
}

/** The engine's answer to a DATA_REQUEST: the sender's submissions in the window. */
export interface Ct600DataList {
  type: "list";
  senderId: string | undefined;
  startTimeStamp: string | undefined;
  endTimeStamp: string | undefined;
  records: Ct600DataRecord[];
}

export type Ct600DataResponse = Ct600DataList | Ct600ErrorAnswer;

/** Children of `parent` with this local name in any namespace (the StatusReport's is not settled). */
function named(parent: Element, localName: string): Element[] {
  return childElements(parent, localName);
}

function text(parent: Element, localName: string): string | undefined {
  const element = named(parent, localName)[0];
  if (!element) return undefined;
  const value = textOf(element);
  return value === "" ? undefined : value;
}

/**
 * Reads the Transaction Engine's answer to a DATA_REQUEST: a `response` with `Body/StatusReport`
 * (SenderID, StartTimeStamp, EndTimeStamp, one StatusRecord {TimeStamp, CorrelationID,
 * TransactionID, Status} per submission), or an `error` with its GovTalkErrors classified as for
 * any other answer (1046: authentication; 1000: transient). Lenient like parseCt600Response;
 * StatusReport elements are matched by local name in any namespace. A record without a
 * CorrelationID is left out. Throws GovTalkXmlError for text that is not a GovTalk message or
 * a response without a StatusReport.
 */
export function parseCt600DataResponse(xml: string): Ct600DataResponse {
  const envelope = readGovTalkEnvelope(xml);
  const correlationId = envelope.correlationId === "" ? undefined : envelope.correlationId;
  const responseEndPoint = envelope.responseEndPoint?.url || undefined;
  if (envelope.qualifier === "error" || envelope.errors.some((error) => error.type !== "warning")) {
    const errorResponse = envelope.body ? childElement(envelope.body, "ErrorResponse", NS.errorResponse) : undefined;
    const details = readErrors(errorResponse, NS.errorResponse);
    const classification = classifyGovTalkErrors(envelope.errors.length > 0 ? envelope.errors : details);
    return { type: "error", correlationId, responseEndPoint, errors: envelope.errors, details, classification };
  }
  if (envelope.qualifier !== "response") {
    throw new GovTalkXmlError(`not an answer to a data request: Qualifier ${JSON.stringify(envelope.qualifier)}`);
  }
  const report = envelope.body ? named(envelope.body, "StatusReport")[0] : undefined;
  if (!report) throw new GovTalkXmlError("data request response without a StatusReport in its Body");
  const records = named(report, "StatusRecord").flatMap((record): Ct600DataRecord[] => {
    const recordCorrelationId = text(record, "CorrelationID");
    if (!recordCorrelationId) return [];
    return [
      {
        correlationId: recordCorrelationId,
        transactionId: text(record, "TransactionID"),
        timestamp: text(record, "TimeStamp") ?? "",
        status: text(record, "Status") ?? "",
      },
    ];
  });
  return {
    type: "list",
    senderId: text(report, "SenderID"),
    startTimeStamp: text(report, "StartTimeStamp"),
    endTimeStamp: text(report, "EndTimeStamp"),
    records,
  };
}
