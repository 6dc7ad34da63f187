import type { Element } from "@xmldom/xmldom";
import { readGovTalkEnvelope, type GovTalkAuthentication, type GovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkXmlError } from "../errors.ts";
import { childElements, textOf } from "../xml/dom-query.ts";
import { parseGovTalkTimeStamp } from "./govtalk-timestamp.ts";

/** A DATA_REQUEST as the Transaction Engine receives it (for the simulator). */
export interface Ct600DataRequest {
  kind: "list";
  envelope: GovTalkEnvelope;
  class: string;
  gatewayTest: boolean;
  /** undefined when absent, "" when empty. */
  correlationId: string | undefined;
  senderId: string | undefined;
  /** The first `Authentication` (Method, Role, Value = password). */
  authentication: GovTalkAuthentication | undefined;
  /** The window asked for, as `dd/mm/yyyy hh:mm:ss` and as an instant (undefined when absent or unreadable). */
  start: { text: string; at: number | undefined } | undefined;
  end: { text: string; at: number | undefined } | undefined;
}

function bodyText(body: Element | undefined, localName: string): string | undefined {
  const element = body ? childElements(body, localName)[0] : undefined;
  return element ? textOf(element) : undefined;
}

function windowEdge(body: Element | undefined, which: "Start" | "End"): Ct600DataRequest["start"] {
  const date = bodyText(body, `${which}Date`);
  if (date === undefined || date === "") return undefined;
  const text = `${date} ${bodyText(body, `${which}Time`) || (which === "Start" ? "00:00:00" : "23:59:59")}`;
  return { text, at: parseGovTalkTimeStamp(text) };
}

/**
 * Reads a DATA_REQUEST (`Qualifier request`, `Function list`) sent to the transaction engine.
 * Body elements (StartDate/StartTime/EndDate/EndTime) are matched by local name in any
 * namespace; a date without its time covers the whole day. Throws GovTalkXmlError for malformed
 * XML, a text that is not a GovTalk message, or another Qualifier/Function.
 */
export function parseCt600DataRequest(xml: string): Ct600DataRequest {
  const envelope = readGovTalkEnvelope(xml);
  if (envelope.qualifier !== "request" || envelope.function !== "list") {
    throw new GovTalkXmlError(
      `not a data request: Qualifier ${JSON.stringify(envelope.qualifier)}, Function ${JSON.stringify(envelope.function)}`,
    );
  }
  return {
    kind: "list",
    envelope,
    class: envelope.class,
    gatewayTest: envelope.gatewayTest ?? false,
    correlationId: envelope.correlationId,
    senderId: envelope.sender?.senderId,
    authentication: envelope.sender?.authentications[0],
    start: windowEdge(envelope.body, "Start"),
    end: windowEdge(envelope.body, "End"),
  };
}
