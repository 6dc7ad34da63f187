import { appendSenderDetails, serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { computeIRmark, type IRmark } from "../irmark/compute.ts";
import { CT600_CLASS } from "./constants.ts";
import { appendNilReturnIRenvelope } from "./nil-return-body.ts";
import { parseCt600NilReturnInput, type Ct600NilReturnInput } from "./nil-return-input.ts";

/** A CT600 submission ready to POST, with the IRmark it carries. */
export interface Ct600SubmitMessage {
  xml: string;
  irmark: IRmark;
}

/**
 * Builds the GovTalk `request`/`submit` message for a dormant nil CT600: empty CorrelationID,
 * clear-text Government Gateway credentials (Role Principal), UTR key, HMRC target, vendor
 * channel routing, and the return with its IRmark computed over the serialised Body.
 * Throws GovTalkInputError on invalid input (the password is never in the message).
 */
export function buildCt600SubmitMessage(input: Ct600NilReturnInput): Ct600SubmitMessage {
  const data = parseCt600NilReturnInput(input);
  const { document, root, header } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "request",
    function: "submit",
    correlationId: "",
    transformation: "XML",
    gatewayTest: data.gatewayTest,
  });
  appendSenderDetails(header, { senderId: data.senderId, method: "clear", role: "Principal", value: data.password });
  const details = root.ele("GovTalkDetails");
  details.ele("Keys").ele("Key", { Type: "UTR" }).txt(data.utr);
  details.ele("TargetDetails").ele("Organisation").txt("HMRC");
  const channel = details.ele("ChannelRouting").ele("Channel");
  channel.ele("URI").txt(data.vendorId);
  channel.ele("Product").txt(data.productName);
  channel.ele("Version").txt(data.productVersion);
  const irmarkElement = appendNilReturnIRenvelope(root.ele("Body"), data);

  const irmark = computeIRmark(serializeMessage(document));
  irmarkElement.txt(irmark.base64);
  const xml = serializeMessage(document);
  const check = computeIRmark(xml);
  if (check.base64 !== irmark.base64) {
    throw new Error("IRmark changed when it was inserted: the message serialisation is not stable");
  }
  return { xml, irmark };
}
