import { create } from "xmlbuilder2";
import { NS } from "../xml/namespaces.ts";
import type { GovTalkErrorInput } from "./govtalk-error.ts";

/** An xmlbuilder2 node. */
export type XmlNode = ReturnType<typeof create>;

export type GovTalkQualifier = "request" | "acknowledgement" | "response" | "poll" | "error";

/** `Header/MessageDetails`, written in the envelope schema's element order. */
export interface MessageDetailsInput {
  envelopeVersion: "1.0" | "2.0";
  class: string;
  qualifier: GovTalkQualifier;
  function?: "submit" | "delete" | "list" | "read" | "add";
  transactionId?: string;
  /** Written when defined; "" writes an empty `CorrelationID`. */
  correlationId?: string;
  responseEndPoint?: { url: string; pollIntervalSeconds?: number };
  transformation?: "XML";
  gatewayTest?: boolean;
  /** Written when defined; the tax authority's own answers carry an empty one. */
  gatewayTimestamp?: string;
}

/** Starts a GovTalk message: returns the document, its root and its `Header`. */
export function startGovTalkMessage(details: MessageDetailsInput): { document: XmlNode; root: XmlNode; header: XmlNode } {
  const document = create({ version: "1.0", encoding: "UTF-8" });
  const root = document.ele(NS.envelope, "GovTalkMessage");
  root.ele("EnvelopeVersion").txt(details.envelopeVersion);
  const header = root.ele("Header");
  const md = header.ele("MessageDetails");
  md.ele("Class").txt(details.class);
  md.ele("Qualifier").txt(details.qualifier);
  if (details.function !== undefined) md.ele("Function").txt(details.function);
  if (details.transactionId !== undefined) md.ele("TransactionID").txt(details.transactionId);
  if (details.correlationId !== undefined) md.ele("CorrelationID").txt(details.correlationId);
  if (details.responseEndPoint !== undefined) {
    const { url, pollIntervalSeconds } = details.responseEndPoint;
    const attributes = pollIntervalSeconds === undefined ? {} : { PollInterval: String(pollIntervalSeconds) };
    md.ele("ResponseEndPoint", attributes).txt(url);
  }
  if (details.transformation !== undefined) md.ele("Transformation").txt(details.transformation);
  if (details.gatewayTest !== undefined) md.ele("GatewayTest").txt(details.gatewayTest ? "1" : "0");
  if (details.gatewayTimestamp !== undefined) md.ele("GatewayTimestamp").txt(details.gatewayTimestamp);
  return { document, root, header };
}

/** `Header/SenderDetails/IDAuthentication` with one `Authentication`. */
export function appendSenderDetails(
  header: XmlNode,
  sender: { senderId: string; method: string; role?: string; value: string; emailAddress?: string },
): void {
  const details = header.ele("SenderDetails");
  const identity = details.ele("IDAuthentication");
  identity.ele("SenderID").txt(sender.senderId);
  const authentication = identity.ele("Authentication");
  authentication.ele("Method").txt(sender.method);
  if (sender.role !== undefined) authentication.ele("Role").txt(sender.role);
  authentication.ele("Value").txt(sender.value);
  if (sender.emailAddress !== undefined) details.ele("EmailAddress").txt(sender.emailAddress);
}

/** `GovTalkErrors` with its errors, under `GovTalkDetails`. */
export function appendGovTalkErrors(govTalkDetails: XmlNode, errors: readonly GovTalkErrorInput[]): void {
  const list = govTalkDetails.ele("GovTalkErrors");
  for (const error of errors) appendError(list, error);
}

/** One `Error` element (envelope or ErrorResponse shape: same children). */
export function appendError(parent: XmlNode, error: GovTalkErrorInput): void {
  const element = parent.ele("Error");
  element.ele("RaisedBy").txt(error.raisedBy);
  element.ele("Number").txt(String(error.number));
  element.ele("Type").txt(error.type);
  element.ele("Text").txt(error.text);
  element.ele("Location").txt(error.location ?? "");
}

/** Serialises a message built with these helpers (UTF-8 declaration, indented). */
export function serializeMessage(document: XmlNode): string {
  return document.end({ prettyPrint: true });
}
