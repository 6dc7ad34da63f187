import { MessageTemplate } from "../../envelope/message-template.ts";
import { serializeMessage, startGovTalkMessage } from "../../envelope/write-envelope.ts";
import { escapeXmlText } from "../../envelope/xml-escape.ts";
import { CT600_CLASS } from "../constants.ts";

/** The delete response as the whole tree serialises it (also what the template is made from). */
export function serialiseCt600DeleteResponse(input: { correlationId: string; gatewayTimestamp?: string }): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "response",
    function: "delete",
    correlationId: input.correlationId,
    transformation: "XML",
    gatewayTimestamp: input.gatewayTimestamp ?? "",
  });
  root.ele("GovTalkDetails").ele("Keys");
  root.ele("Body");
  return serializeMessage(document);
}

const SLOTS = { correlationId: "CORRELATION-ID-SLOT", gatewayTimestamp: "GATEWAY-TIMESTAMP-SLOT" };
let template: MessageTemplate<keyof typeof SLOTS> | undefined;

/** The transaction engine's `response` to a delete request (templated as the acknowledgement is). */
export function buildCt600DeleteResponse(input: { correlationId: string; gatewayTimestamp?: string }): string {
  const gatewayTimestamp = input.gatewayTimestamp ?? "";
  if (input.correlationId === "" || gatewayTimestamp === "") return serialiseCt600DeleteResponse(input);
  template ??= new MessageTemplate(serialiseCt600DeleteResponse(SLOTS), SLOTS);
  return template.fill({ correlationId: escapeXmlText(input.correlationId), gatewayTimestamp: escapeXmlText(gatewayTimestamp) });
}
