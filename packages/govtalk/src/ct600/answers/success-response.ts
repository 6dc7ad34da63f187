import { MessageTemplate } from "../../envelope/message-template.ts";
import { serializeMessage, startGovTalkMessage } from "../../envelope/write-envelope.ts";
import { escapeXmlAttribute, escapeXmlText } from "../../envelope/xml-escape.ts";
import { irmarkToBase32 } from "../../irmark/base32.ts";
import { NS } from "../../xml/namespaces.ts";
import { CT600_CLASS } from "../constants.ts";

export interface Ct600SuccessResponseInput {
  correlationId: string;
  /** The IRmark of the accepted submission, base64 (as computed from it). */
  irmark: string;
  /** The UTR the return was filed for (quoted as "document ref"). */
  utr: string;
  /** `YYYY-MM-DDTHH:MM:SS(.sss)`, the authority's local time without zone. */
  acceptedTime: string;
  responseEndPoint?: string;
  pollIntervalSeconds?: number;
  gatewayTimestamp?: string;
}

const ACCEPTED_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):\d{2}(\.\d+)?$/;

/** The receipt sentence, e.g. "... ref: 8596148860 at 00.33 on 29/09/2026. The associated IRmark was: MK4B...". */
function receiptText(utr: string, acceptedTime: string, irmarkBase32: string): string {
  const match = ACCEPTED_TIME.exec(acceptedTime);
  if (!match) throw new RangeError(`acceptedTime must be YYYY-MM-DDTHH:MM:SS[.sss], got ${JSON.stringify(acceptedTime)}`);
  const [, year, month, day, hour, minute] = match;
  return (
    `HMRC has received the ${CT600_CLASS} document ref: ${utr} at ${hour}.${minute} on ${day}/${month}/${year}. ` +
    `The associated IRmark was: ${irmarkBase32}. We strongly recommend that you keep this receipt electronically, ` +
    "and we advise that you also keep your submission electronically for your records. " +
    "They are evidence of the information that you submitted to HMRC."
  );
}

/**
 * The transaction engine's success `response` with its IRmarkReceipt: the XML signature's
 * SignedInfo names the IRmark transforms and carries the IRmark as DigestValue; the simulator
 * has no authority key, so SignatureValue and KeyInfo are left out. Serialised once with
 * placeholders and the values (escaped as xmlbuilder2 escapes them) written in, byte for byte the
 * tree's serialisation; with an empty or absent value (written differently by the tree) the tree
 * is serialised.
 */
export function buildCt600SuccessResponse(input: Ct600SuccessResponseInput): string {
  const irmarkBase32 = irmarkToBase32(input.irmark);
  const message = receiptText(input.utr, input.acceptedTime, irmarkBase32);
  const url = input.responseEndPoint ?? "";
  const gatewayTimestamp = input.gatewayTimestamp ?? "";
  if (
    input.correlationId === "" ||
    url === "" ||
    gatewayTimestamp === "" ||
    input.pollIntervalSeconds === undefined ||
    input.irmark === ""
  ) {
    return serialiseSuccess(input, message);
  }
  template ??= new MessageTemplate(serialiseSuccess(SUCCESS_SLOTS_INPUT, SLOTS.message), SLOTS);
  return template.fill({
    correlationId: escapeXmlText(input.correlationId),
    responseEndPoint: escapeXmlText(url),
    pollInterval: escapeXmlAttribute(String(input.pollIntervalSeconds)),
    gatewayTimestamp: escapeXmlText(gatewayTimestamp),
    digest: escapeXmlText(input.irmark),
    message: escapeXmlText(message),
    acceptedTime: escapeXmlText(input.acceptedTime),
  });
}

const SLOTS = {
  correlationId: "CORRELATION-ID-SLOT",
  responseEndPoint: "RESPONSE-END-POINT-SLOT",
  pollInterval: "POLL-INTERVAL-SLOT",
  gatewayTimestamp: "GATEWAY-TIMESTAMP-SLOT",
  digest: "DIGEST-VALUE-SLOT",
  message: "RECEIPT-MESSAGE-SLOT",
  acceptedTime: "ACCEPTED-TIME-SLOT",
};
const SUCCESS_SLOTS_INPUT: Ct600SuccessResponseInput = {
  correlationId: SLOTS.correlationId,
  irmark: SLOTS.digest,
  utr: "",
  acceptedTime: SLOTS.acceptedTime,
  responseEndPoint: SLOTS.responseEndPoint,
  pollIntervalSeconds: SLOTS.pollInterval as unknown as number,
  gatewayTimestamp: SLOTS.gatewayTimestamp,
};
let template: MessageTemplate<keyof typeof SLOTS> | undefined;

/** The success response as the whole tree serialises it (also what the template is made from). */
export function serialiseSuccess(input: Ct600SuccessResponseInput, receiptMessage: string): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "response",
    function: "submit",
    correlationId: input.correlationId,
    responseEndPoint: { url: input.responseEndPoint ?? "", pollIntervalSeconds: input.pollIntervalSeconds },
    transformation: "XML",
    gatewayTimestamp: input.gatewayTimestamp ?? "",
  });
  root.ele("GovTalkDetails").ele("Keys");
  const success = root.ele("Body").ele(NS.successResponse, "SuccessResponse");
  const receipt = success.ele("IRmarkReceipt");
  const signedInfo = receipt.ele(NS.xmldsig, "dsig:Signature").ele(NS.xmldsig, "dsig:SignedInfo");
  signedInfo.ele(NS.xmldsig, "dsig:CanonicalizationMethod", { Algorithm: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315" });
  signedInfo.ele(NS.xmldsig, "dsig:SignatureMethod", { Algorithm: "http://www.w3.org/2000/09/xmldsig#rsa-sha1" });
  const reference = signedInfo.ele(NS.xmldsig, "dsig:Reference");
  const transforms = reference.ele(NS.xmldsig, "dsig:Transforms");
  transforms
    .ele(NS.xmldsig, "dsig:Transform", { Algorithm: "http://www.w3.org/TR/1999/REC-xpath-19991116" })
    .ele(NS.xmldsig, "dsig:XPath")
    .txt(
      "(count(ancestor-or-self::node()|/gti:GovTalkMessage/gti:Body)=count(ancestor-or-self::node())) and " +
        "(count(ancestor-or-self::node()|/gti:GovTalkMessage/gti:Body/*[name()='IRenvelope']/*[name()='IRheader']/*[name()='IRmark'])!=count(ancestor-or-self::node()))",
    );
  transforms.ele(NS.xmldsig, "dsig:Transform", { Algorithm: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments" });
  reference.ele(NS.xmldsig, "dsig:DigestMethod", { Algorithm: "http://www.w3.org/2000/09/xmldsig#sha1" });
  reference.ele(NS.xmldsig, "dsig:DigestValue").txt(input.irmark);
  receipt.ele(NS.successResponse, "Message", { code: "0000" }).txt(receiptMessage);
  success.ele(NS.successResponse, "Message", { code: "077001" }).txt("Thank you for your submission");
  success.ele(NS.successResponse, "AcceptedTime").txt(input.acceptedTime);
  return serializeMessage(document);
}
