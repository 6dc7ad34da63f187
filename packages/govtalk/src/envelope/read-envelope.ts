import type { Document, Element } from "@xmldom/xmldom";
import { GovTalkXmlError } from "../errors.ts";
import { childElement, childElements, elementAt, textAt, textOf } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";
import type { GovTalkError } from "./govtalk-error.ts";

/** One `IDAuthentication/Authentication`. */
export interface GovTalkAuthentication {
  method: string;
  role: string | undefined;
  value: string;
}

/**
 * A GovTalk envelope read leniently: absent elements are undefined, nothing is checked against
 * the schema (the tax authority's answers carry an empty `GatewayTimestamp` the schema refuses).
 */
export interface GovTalkEnvelope {
  envelopeVersion: string;
  class: string;
  qualifier: string;
  function: string | undefined;
  transactionId: string | undefined;
  /** undefined when absent, "" when empty. */
  correlationId: string | undefined;
  responseEndPoint: { url: string; pollIntervalSeconds: number | undefined } | undefined;
  transformation: string | undefined;
  gatewayTest: boolean | undefined;
  gatewayTimestamp: string | undefined;
  /** `Header/SenderDetails`, when it has an `IDAuthentication` or an `EmailAddress`. */
  sender: { senderId: string | undefined; authentications: GovTalkAuthentication[]; emailAddress: string | undefined } | undefined;
  /** `GovTalkDetails/Keys/Key`. */
  keys: { type: string; value: string }[];
  /** `GovTalkDetails/ChannelRouting/Channel` (first). */
  channel: { uri: string | undefined; name: string | undefined; product: string | undefined; version: string | undefined } | undefined;
  /** `GovTalkDetails/TargetDetails/Organisation`. */
  targetOrganisations: string[];
  /** `GovTalkDetails/GovTalkErrors/Error`. */
  errors: GovTalkError[];
  /** The `Body` element, if present. */
  body: Element | undefined;
}

/** Reads `Error` elements of `container` (children in `namespace`). */
export function readErrors(container: Element | undefined, namespace: string): GovTalkError[] {
  if (!container) return [];
  return childElements(container, "Error", namespace).map((error) => {
    const number = textAt(error, ["Number"], namespace) ?? "";
    const joined = (name: string) =>
      childElements(error, name, namespace)
        .map(textOf)
        .filter((text) => text !== "")
        .join(" ");
    return {
      raisedBy: textAt(error, ["RaisedBy"], namespace) ?? "",
      number: /^-?\d+$/.test(number) ? Number(number) : null,
      type: textAt(error, ["Type"], namespace) ?? "",
      text: joined("Text"),
      location: joined("Location"),
    };
  });
}

function optionalText(parent: Element, name: string): string | undefined {
  const element = childElement(parent, name, NS.envelope);
  return element ? textOf(element) : undefined;
}

function readPollInterval(endPoint: Element): number | undefined {
  const value = endPoint.getAttribute("PollInterval");
  return value && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

function readSender(header: Element): GovTalkEnvelope["sender"] {
  const details = childElement(header, "SenderDetails", NS.envelope);
  if (!details) return undefined;
  const identity = childElement(details, "IDAuthentication", NS.envelope);
  const emailAddress = optionalText(details, "EmailAddress");
  if (!identity && emailAddress === undefined) return undefined;
  return {
    senderId: identity ? optionalText(identity, "SenderID") : undefined,
    authentications: identity
      ? childElements(identity, "Authentication", NS.envelope).map((authentication) => ({
          method: optionalText(authentication, "Method") ?? "",
          role: optionalText(authentication, "Role"),
          value: (childElement(authentication, "Value", NS.envelope)?.textContent ?? "").trim(),
        }))
      : [],
    emailAddress,
  };
}

/** Reads the envelope of a GovTalk message given as text (parsed strictly) or as a document. */
export function readGovTalkEnvelope(message: string | Document): GovTalkEnvelope {
  const document = typeof message === "string" ? parseXml(message) : message;
  const root = document.documentElement;
  if (root?.localName !== "GovTalkMessage" || root.namespaceURI !== NS.envelope) {
    throw new GovTalkXmlError(`not a GovTalk message: the root element must be {${NS.envelope}}GovTalkMessage`);
  }
  const header = childElement(root, "Header", NS.envelope);
  const md = header ? childElement(header, "MessageDetails", NS.envelope) : undefined;
  if (!header || !md) throw new GovTalkXmlError("not a GovTalk message: no Header/MessageDetails");
  const endPoint = childElement(md, "ResponseEndPoint", NS.envelope);
  const details = childElement(root, "GovTalkDetails", NS.envelope);
  const channel = details ? elementAt(details, ["ChannelRouting", "Channel"], NS.envelope) : undefined;
  const gatewayTest = optionalText(md, "GatewayTest");
  const keys = details ? childElement(details, "Keys", NS.envelope) : undefined;
  const target = details ? childElement(details, "TargetDetails", NS.envelope) : undefined;
  return {
    envelopeVersion: optionalText(root, "EnvelopeVersion") ?? "",
    class: optionalText(md, "Class") ?? "",
    qualifier: optionalText(md, "Qualifier") ?? "",
    function: optionalText(md, "Function"),
    transactionId: optionalText(md, "TransactionID"),
    correlationId: optionalText(md, "CorrelationID"),
    responseEndPoint: endPoint ? { url: textOf(endPoint), pollIntervalSeconds: readPollInterval(endPoint) } : undefined,
    transformation: optionalText(md, "Transformation"),
    gatewayTest: gatewayTest === undefined || gatewayTest === "" ? undefined : gatewayTest === "1" || gatewayTest === "true",
    gatewayTimestamp: optionalText(md, "GatewayTimestamp"),
    sender: readSender(header),
    keys: keys ? childElements(keys, "Key", NS.envelope).map((key) => ({ type: key.getAttribute("Type") ?? "", value: textOf(key) })) : [],
    channel: channel
      ? {
          uri: optionalText(channel, "URI"),
          name: optionalText(channel, "Name"),
          product: optionalText(channel, "Product"),
          version: optionalText(channel, "Version"),
        }
      : undefined,
    targetOrganisations: target ? childElements(target, "Organisation", NS.envelope).map(textOf) : [],
    errors: readErrors(details ? childElement(details, "GovTalkErrors", NS.envelope) : undefined, NS.envelope),
    body: childElement(root, "Body", NS.envelope),
  };
}
