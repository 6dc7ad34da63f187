import type { GovTalkErrorInput } from "../../envelope/govtalk-error.ts";
import { appendError, appendGovTalkErrors, serializeMessage, startGovTalkMessage } from "../../envelope/write-envelope.ts";
import { NS } from "../../xml/namespaces.ts";
import { CT600_CLASS } from "../constants.ts";

export interface Ct600ErrorResponseInput {
  /** Empty or absent for a refused submission; the submission's ID for poll and delete errors. */
  correlationId?: string;
  function?: "submit" | "delete" | "list";
  /** `GovTalkDetails/GovTalkErrors` (see TAX_ERRORS / taxError). */
  errors: readonly GovTalkErrorInput[];
  /** Itemised errors for `Body/ErrorResponse` (e.g. 9xxx rules under a 3001). */
  details?: readonly GovTalkErrorInput[];
  responseEndPoint?: string;
  pollIntervalSeconds?: number;
  gatewayTimestamp?: string;
  /** `Class` echoed; the engine answers `UndefinedClass` when authentication fails first. */
  class?: string;
}

/** The transaction engine's `error` answer, with an ErrorResponse body when details are given. */
export function buildCt600ErrorResponse(input: Ct600ErrorResponseInput): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: input.class ?? CT600_CLASS,
    qualifier: "error",
    function: input.function ?? "submit",
    correlationId: input.correlationId ?? "",
    responseEndPoint: { url: input.responseEndPoint ?? "", pollIntervalSeconds: input.pollIntervalSeconds },
    transformation: "XML",
    gatewayTimestamp: input.gatewayTimestamp ?? "",
  });
  const details = root.ele("GovTalkDetails");
  details.ele("Keys");
  appendGovTalkErrors(details, input.errors);
  const body = root.ele("Body");
  if (input.details && input.details.length > 0) {
    const response = body.ele(NS.errorResponse, "ErrorResponse", { SchemaVersion: "2.0" });
    response.ele("Application").ele("MessageCount").txt(String(input.details.length));
    for (const detail of input.details) appendError(response, detail);
  }
  return serializeMessage(document);
}
