import { serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { CT600_CLASS } from "./constants.ts";
import { assertCorrelationId } from "./correlation-id.ts";

/**
 * Builds the GovTalk `poll` for a CT600 submission: same Class and CorrelationID as the
 * acknowledgement, no SenderDetails, empty Keys, no Body content. POST it to the
 * acknowledgement's ResponseEndPoint after its PollInterval.
 */
export function buildCt600PollMessage(input: { correlationId: string; gatewayTest: boolean }): string {
  assertCorrelationId(input.correlationId);
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "poll",
    function: "submit",
    correlationId: input.correlationId,
    transformation: "XML",
    gatewayTest: input.gatewayTest,
  });
  root.ele("GovTalkDetails").ele("Keys");
  root.ele("Body");
  return serializeMessage(document);
}
