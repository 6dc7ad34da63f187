import { MessageTemplate } from "../envelope/message-template.ts";
import { serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { CT600_CLASS } from "./constants.ts";
import { assertCorrelationId } from "./correlation-id.ts";

const CORRELATION_ID_SLOT = "CORRELATION-ID-SLOT";

function pollTemplate(gatewayTest: boolean): MessageTemplate<"correlationId"> {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "poll",
    function: "submit",
    correlationId: CORRELATION_ID_SLOT,
    transformation: "XML",
    gatewayTest,
  });
  root.ele("GovTalkDetails").ele("Keys");
  root.ele("Body");
  return new MessageTemplate(serializeMessage(document), { correlationId: CORRELATION_ID_SLOT });
}

/** Serialised once per GatewayTest value; only the CorrelationID (upper-case hex, checked) changes. */
const templates = new Map<boolean, MessageTemplate<"correlationId">>();

/**
 * Builds the GovTalk `poll` for a CT600 submission: same Class and CorrelationID as the
 * acknowledgement, no SenderDetails, empty Keys, no Body content. POST it to the
 * acknowledgement's ResponseEndPoint after its PollInterval.
 */
export function buildCt600PollMessage(input: { correlationId: string; gatewayTest: boolean }): string {
  assertCorrelationId(input.correlationId);
  let template = templates.get(input.gatewayTest);
  if (!template) templates.set(input.gatewayTest, (template = pollTemplate(input.gatewayTest)));
  return template.fill({ correlationId: input.correlationId });
}
