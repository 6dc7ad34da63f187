import { serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { CT600_CLASS } from "./constants.ts";
import { assertCorrelationId } from "./correlation-id.ts";

/**
 * Builds the GovTalk `request`/`delete` that clears a finished CT600 submission from the
 * transaction engine once its response or error has been read (an answer of error 2000 means
 * it was already gone).
 */
export function buildCt600DeleteMessage(input: { correlationId: string; gatewayTest: boolean }): string {
  assertCorrelationId(input.correlationId);
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "request",
    function: "delete",
    correlationId: input.correlationId,
    transformation: "XML",
    gatewayTest: input.gatewayTest,
  });
  root.ele("GovTalkDetails").ele("Keys");
  root.ele("Body");
  return serializeMessage(document);
}
