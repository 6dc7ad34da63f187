import { MessageTemplate } from "../envelope/message-template.ts";
import { serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { CT600_CLASS } from "./constants.ts";
import { assertCorrelationId } from "./correlation-id.ts";

const CORRELATION_ID_SLOT = "CORRELATION-ID-SLOT";

function deleteTemplate(gatewayTest: boolean): MessageTemplate<"correlationId"> {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "request",
    function: "delete",
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
 * Builds the GovTalk `request`/`delete` that clears a finished CT600 submission from the
 * transaction engine once its response or error has been read (an answer of error 2000 means
 * it was already gone).
 */
export function buildCt600DeleteMessage(input: { correlationId: string; gatewayTest: boolean }): string {
  assertCorrelationId(input.correlationId);
  let template = templates.get(input.gatewayTest);
  if (!template) templates.set(input.gatewayTest, (template = deleteTemplate(input.gatewayTest)));
  return template.fill({ correlationId: input.correlationId });
}
