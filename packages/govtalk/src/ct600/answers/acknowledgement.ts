import { MessageTemplate } from "../../envelope/message-template.ts";
import { serializeMessage, startGovTalkMessage } from "../../envelope/write-envelope.ts";
import { escapeXmlAttribute, escapeXmlText } from "../../envelope/xml-escape.ts";
import { CT600_CLASS } from "../constants.ts";

export interface Ct600AcknowledgementInput {
  correlationId: string;
  pollIntervalSeconds: number;
  /** Where to poll, e.g. https://transaction-engine.tax.service.gov.uk/poll. */
  responseEndPoint: string;
  gatewayTimestamp?: string;
}

/** The acknowledgement as the whole tree serialises it (also what the template is made from). */
export function serialiseCt600Acknowledgement(input: Ct600AcknowledgementInput): string {
  const { document, root, header } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "acknowledgement",
    function: "submit",
    transactionId: "",
    correlationId: input.correlationId,
    responseEndPoint: { url: input.responseEndPoint, pollIntervalSeconds: input.pollIntervalSeconds },
    gatewayTimestamp: input.gatewayTimestamp ?? "",
  });
  header.ele("SenderDetails");
  root.ele("GovTalkDetails").ele("Keys");
  root.ele("Body");
  return serializeMessage(document);
}

const SLOTS = {
  correlationId: "CORRELATION-ID-SLOT",
  pollInterval: "POLL-INTERVAL-SLOT",
  responseEndPoint: "RESPONSE-END-POINT-SLOT",
  gatewayTimestamp: "GATEWAY-TIMESTAMP-SLOT",
};
let template: MessageTemplate<keyof typeof SLOTS> | undefined;

/**
 * The transaction engine's `acknowledgement` of a submission (or of a poll still pending). The
 * simulator answers one to every submission and every pending poll: the message is serialised
 * once with placeholders and the values (escaped as xmlbuilder2 escapes them) written in, byte
 * for byte the tree's serialisation; an empty value, which the tree writes as an empty element,
 * is serialised from the tree.
 */
export function buildCt600Acknowledgement(input: Ct600AcknowledgementInput): string {
  const gatewayTimestamp = input.gatewayTimestamp ?? "";
  if (input.correlationId === "" || input.responseEndPoint === "" || gatewayTimestamp === "") return serialiseCt600Acknowledgement(input);
  template ??= new MessageTemplate(
    serialiseCt600Acknowledgement({
      correlationId: SLOTS.correlationId,
      pollIntervalSeconds: SLOTS.pollInterval as unknown as number,
      responseEndPoint: SLOTS.responseEndPoint,
      gatewayTimestamp: SLOTS.gatewayTimestamp,
    }),
    SLOTS,
  );
  return template.fill({
    correlationId: escapeXmlText(input.correlationId),
    pollInterval: escapeXmlAttribute(String(input.pollIntervalSeconds)),
    responseEndPoint: escapeXmlText(input.responseEndPoint),
    gatewayTimestamp: escapeXmlText(gatewayTimestamp),
  });
}
