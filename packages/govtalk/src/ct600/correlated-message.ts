import { MessageTemplate } from "../envelope/message-template.ts";
import { serializeMessage, startGovTalkMessage, type GovTalkQualifier } from "../envelope/write-envelope.ts";
import { CT600_CLASS } from "./constants.ts";
import { assertCorrelationId } from "./correlation-id.ts";

const CORRELATION_ID_SLOT = "CORRELATION-ID-SLOT";

/** A message about one submission, named by its CorrelationID: the poll and the delete. */
export interface CorrelatedMessageKind {
  qualifier: GovTalkQualifier;
  function: "submit" | "delete";
}

/**
 * A builder of the CT600 messages that name a submission by its CorrelationID and carry nothing
 * else (same Class, no SenderDetails, empty Keys, empty Body): each is serialised once per
 * GatewayTest value, and only the CorrelationID (upper-case hex, checked) changes.
 */
export function correlatedMessageBuilder(kind: CorrelatedMessageKind): (input: { correlationId: string; gatewayTest: boolean }) => string {
  const templates = new Map<boolean, MessageTemplate<"correlationId">>();
  const template = (gatewayTest: boolean): MessageTemplate<"correlationId"> => {
    const { document, root } = startGovTalkMessage({
      envelopeVersion: "2.0",
      class: CT600_CLASS,
      qualifier: kind.qualifier,
      function: kind.function,
      correlationId: CORRELATION_ID_SLOT,
      transformation: "XML",
      gatewayTest,
    });
    root.ele("GovTalkDetails").ele("Keys");
    root.ele("Body");
    return new MessageTemplate(serializeMessage(document), { correlationId: CORRELATION_ID_SLOT });
  };
  return (input) => {
    assertCorrelationId(input.correlationId);
    let built = templates.get(input.gatewayTest);
    if (!built) {
      built = template(input.gatewayTest);
      templates.set(input.gatewayTest, built);
    }
    return built.fill({ correlationId: input.correlationId });
  };
}
