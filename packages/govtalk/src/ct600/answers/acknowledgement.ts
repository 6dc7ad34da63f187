import { serializeMessage, startGovTalkMessage } from "../../envelope/write-envelope.ts";
import { CT600_CLASS } from "../constants.ts";

export interface Ct600AcknowledgementInput {
  correlationId: string;
  pollIntervalSeconds: number;
  /** Where to poll, e.g. https://transaction-engine.tax.service.gov.uk/poll. */
  responseEndPoint: string;
  gatewayTimestamp?: string;
}

/** The transaction engine's `acknowledgement` of a submission (or of a poll still pending). */
export function buildCt600Acknowledgement(input: Ct600AcknowledgementInput): string {
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
