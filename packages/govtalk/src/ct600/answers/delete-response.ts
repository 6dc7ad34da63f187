import { serializeMessage, startGovTalkMessage } from "../../envelope/write-envelope.ts";
import { CT600_CLASS } from "../constants.ts";

/** The transaction engine's `response` to a delete request. */
export function buildCt600DeleteResponse(input: { correlationId: string; gatewayTimestamp?: string }): string {
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
