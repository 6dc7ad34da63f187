import type { GovTalkErrorClassification } from "../envelope/classify.ts";
import type { GovTalkError } from "../envelope/govtalk-error.ts";
import { readErrors, readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkXmlError } from "../errors.ts";
import { childElement, childElements, textOf } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { classifyGovTalkErrors } from "./classify-errors.ts";
import { readIRmarkReceipt, type IRmarkReceipt } from "./irmark-receipt.ts";

/** The envelope schema's default PollInterval, in seconds. */
export const DEFAULT_POLL_INTERVAL_SECONDS = 2;

/** The submission is queued: poll `responseEndPoint` with `correlationId` after `pollIntervalSeconds`. */
export interface Ct600Acknowledgement {
  type: "acknowledgement";
  correlationId: string;
  pollIntervalSeconds: number;
  responseEndPoint: string | undefined;
  gatewayTimestamp: string | undefined;
}

/** The return was accepted. */
export interface Ct600Success {
  type: "success";
  correlationId: string | undefined;
  responseEndPoint: string | undefined;
  receipt: IRmarkReceipt;
  /** `AcceptedTime` as sent (authority's local clock, no zone), e.g. 2026-09-29T00:33:06.257. */
  acceptedTime: string | undefined;
  /** Every `Message` of the SuccessResponse (the receipt's included), with its code. */
  messages: { code: string; text: string }[];
}

/** The message or the return was refused; `classification` says whether to retry. */
export interface Ct600ErrorAnswer {
  type: "error";
  correlationId: string | undefined;
  responseEndPoint: string | undefined;
  /** `GovTalkDetails/GovTalkErrors`. */
  errors: GovTalkError[];
  /** `Body/ErrorResponse/Error`: the itemised (e.g. 9xxx business rule) errors. */
  details: GovTalkError[];
  classification: GovTalkErrorClassification;
}

/** The submission was deleted from the transaction engine. */
export interface Ct600Deleted {
  type: "deleted";
  correlationId: string | undefined;
}

export type Ct600Response = Ct600Acknowledgement | Ct600Success | Ct600ErrorAnswer | Ct600Deleted;

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Reads an answer of the tax transaction engine to a submit, poll or delete. Lenient: nothing is
 * schema-validated (real answers carry an empty GatewayTimestamp). Throws GovTalkXmlError for
 * text that is not a GovTalk message or an answer this protocol does not define.
 */
export function parseCt600Response(xml: string): Ct600Response {
  const envelope = readGovTalkEnvelope(xml);
  const correlationId = blankToUndefined(envelope.correlationId);
  const responseEndPoint = blankToUndefined(envelope.responseEndPoint?.url);
  const qualifier = envelope.qualifier;

  if (qualifier === "error" || envelope.errors.some((error) => error.type !== "warning")) {
    const errorResponse = envelope.body ? childElement(envelope.body, "ErrorResponse", NS.errorResponse) : undefined;
    const details = readErrors(errorResponse, NS.errorResponse);
    const classification = classifyGovTalkErrors(envelope.errors.length > 0 ? envelope.errors : details);
    return { type: "error", correlationId, responseEndPoint, errors: envelope.errors, details, classification };
  }
  if (qualifier === "acknowledgement") {
    if (!correlationId) throw new GovTalkXmlError("acknowledgement without a CorrelationID");
    return {
      type: "acknowledgement",
      correlationId,
      pollIntervalSeconds: envelope.responseEndPoint?.pollIntervalSeconds ?? DEFAULT_POLL_INTERVAL_SECONDS,
      responseEndPoint,
      gatewayTimestamp: blankToUndefined(envelope.gatewayTimestamp),
    };
  }
  if (qualifier === "response" && envelope.function === "delete") return { type: "deleted", correlationId };
  if (qualifier === "response") {
    const success = envelope.body ? childElement(envelope.body, "SuccessResponse", NS.successResponse) : undefined;
    if (!success) throw new GovTalkXmlError("response without a SuccessResponse in its Body");
    const accepted = childElement(success, "AcceptedTime", NS.successResponse);
    const messages = [
      ...childElements(success, "IRmarkReceipt", NS.successResponse).flatMap((receipt) =>
        childElements(receipt, "Message", NS.successResponse),
      ),
      ...childElements(success, "Message", NS.successResponse),
    ].map((message) => ({ code: message.getAttribute("code") ?? "", text: textOf(message) }));
    return {
      type: "success",
      correlationId,
      responseEndPoint,
      receipt: readIRmarkReceipt(success),
      acceptedTime: blankToUndefined(accepted ? textOf(accepted) : undefined),
      messages,
    };
  }
  throw new GovTalkXmlError(`not an answer of the tax transaction engine: Qualifier ${JSON.stringify(qualifier)}`);
}
