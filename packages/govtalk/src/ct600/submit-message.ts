import { appendSenderDetails, serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { escapeXmlText } from "../envelope/xml-escape.ts";
import { GovTalkInputError } from "../errors.ts";
import { computeIRmark, type IRmark } from "../irmark/compute.ts";
import { PASSWORD_MASK } from "../secrets/mask-gateway-password.ts";
import { CT600_CLASS } from "./constants.ts";
import { appendNilReturnIRenvelope } from "./nil-return-body.ts";
import { parseCt600NilReturnInput, type Ct600NilReturnInput } from "./nil-return-input.ts";

/** A CT600 submission ready to POST, with the IRmark it carries. */
export interface Ct600SubmitMessage {
  xml: string;
  /**
   * The same message with the password replaced by `********` (PASSWORD_MASK), every other byte
   * identical (so the Body and its IRmark too): what may be stored or shown as the message sent.
   */
  maskedXml: string;
  irmark: IRmark;
}

/** What the sender chooses in the envelope besides the return. */
export interface Ct600SubmitEnvelope {
  /**
   * `MessageDetails/TransactionID` (1-32 upper-case hex digits), the sender's own id for the
   * message: the Transaction Engine lists it beside the CorrelationID it gave the submission in
   * its answer to a DATA_REQUEST, so a submission whose acknowledgement was lost can be found.
   */
  transactionId?: string;
}

const TRANSACTION_ID = /^[0-9A-F]{1,32}$/;

/**
 * What the IRmark element holds while the message is serialised and its IRmark computed (the
 * IRmark digest leaves the element out, so its content does not matter). Not base64, so it can
 * never be mistaken for a real IRmark.
 */
const IRMARK_PLACEHOLDER = "IRMARK-TO-BE-COMPUTED";
const IRMARK_SLOT = `<IRmark Type="generic">${IRMARK_PLACEHOLDER}</IRmark>`;
const MASKED_VALUE = `<Value>${PASSWORD_MASK}</Value>`;

/** The only occurrence of `needle` in `text` (a built message has exactly one), or an Error. */
function onlyOccurrence(text: string, needle: string, what: string): number {
  const index = text.indexOf(needle);
  if (index < 0 || text.indexOf(needle, index + 1) >= 0) throw new Error(`the built CT600 does not contain exactly one ${what}`);
  return index;
}

/**
 * Builds the GovTalk `request`/`submit` message for a dormant nil CT600: empty CorrelationID,
 * clear-text Government Gateway credentials (Role Principal), UTR key, HMRC target, vendor
 * channel routing, and the return with its IRmark computed over the serialised Body.
 * Throws GovTalkInputError on invalid input (the password is never in the message).
 *
 * The message is serialised once, with `********` as the password and a placeholder as the
 * IRmark; the IRmark is computed from that text (one parse, one canonicalisation: the Body does
 * not contain the password) and written over the placeholder, which gives `maskedXml`; `xml` is
 * the same text with the escaped password written over the header's one masked `Value`. Both
 * are therefore byte for byte what serialising the finished tree gives, and differ from each
 * other only inside that `Value`; the Body they carry is the one the IRmark was computed from.
 */
export function buildCt600SubmitMessage(input: Ct600NilReturnInput, envelope: Ct600SubmitEnvelope = {}): Ct600SubmitMessage {
  const data = parseCt600NilReturnInput(input);
  if (envelope.transactionId !== undefined && !TRANSACTION_ID.test(envelope.transactionId)) {
    throw new GovTalkInputError("invalid CT600 envelope: transactionId", [
      { path: "transactionId", message: "must be 1-32 upper-case hexadecimal digits" },
    ]);
  }
  const { document, root, header } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "request",
    function: "submit",
    ...(envelope.transactionId === undefined ? {} : { transactionId: envelope.transactionId }),
    correlationId: "",
    transformation: "XML",
    gatewayTest: data.gatewayTest,
  });
  appendSenderDetails(header, { senderId: data.senderId, method: "clear", role: "Principal", value: PASSWORD_MASK });
  const details = root.ele("GovTalkDetails");
  details.ele("Keys").ele("Key", { Type: "UTR" }).txt(data.utr);
  details.ele("TargetDetails").ele("Organisation").txt("HMRC");
  const channel = details.ele("ChannelRouting").ele("Channel");
  channel.ele("URI").txt(data.vendorId);
  channel.ele("Product").txt(data.productName);
  channel.ele("Version").txt(data.productVersion);
  appendNilReturnIRenvelope(root.ele("Body"), data).txt(IRMARK_PLACEHOLDER);

  const template = serializeMessage(document);
  const irmark = computeIRmark(template);
  const slot = onlyOccurrence(template, IRMARK_SLOT, "IRmark placeholder");
  const maskedXml = `${template.slice(0, slot)}<IRmark Type="generic">${irmark.base64}</IRmark>${template.slice(slot + IRMARK_SLOT.length)}`;
  // The Header comes before the Body and is the only place with a `<Value>` element (the nil
  // return has none), so the one occurrence found is the password's.
  const value = onlyOccurrence(maskedXml, MASKED_VALUE, "masked password Value");
  const xml = `${maskedXml.slice(0, value)}<Value>${escapeXmlText(data.password)}</Value>${maskedXml.slice(value + MASKED_VALUE.length)}`;
  return { xml, maskedXml, irmark };
}
