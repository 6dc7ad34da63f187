import type { Element } from "@xmldom/xmldom";
import { readGovTalkEnvelope, type GovTalkAuthentication, type GovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkXmlError } from "../errors.ts";
import { computeIRmark, irmarkElements, type IRmark } from "../irmark/compute.ts";
import { childElement, childElements, textAt, textOf } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";

/** What the return in a submission says, read leniently (undefined where absent). */
export interface Ct600ReturnSummary {
  utr: string | undefined;
  /** `IRheader/PeriodEnd`. */
  periodEnd: string | undefined;
  companyName: string | undefined;
  companyNumber: string | undefined;
  reference: string | undefined;
  /** `PeriodCovered/From`. */
  periodFrom: string | undefined;
  /** `PeriodCovered/To`. */
  periodTo: string | undefined;
  declarantName: string | undefined;
  declarantStatus: string | undefined;
}

interface Ct600RequestBase {
  envelope: GovTalkEnvelope;
  class: string;
  gatewayTest: boolean;
  /** undefined when absent, "" when empty. */
  correlationId: string | undefined;
}

/** A CT600 submission as the authority receives it (what its checks need). */
export interface Ct600SubmitRequest extends Ct600RequestBase {
  kind: "submit";
  senderId: string | undefined;
  /** The first `Authentication` (Method, Role, Value = password). */
  authentication: GovTalkAuthentication | undefined;
  /** `GovTalkDetails/Keys/Key[@Type=UTR]`. */
  utrKey: string | undefined;
  /** The IRmark written in the return, if any. */
  declaredIRmark: string | undefined;
  /** The IRmark computed from the message. */
  computedIRmark: IRmark;
  /** missing: answer 2022; incorrect: answer 2021. */
  irmarkStatus: "valid" | "missing" | "incorrect";
  return: Ct600ReturnSummary;
}

export interface Ct600PollRequest extends Ct600RequestBase {
  kind: "poll";
}

export interface Ct600DeleteRequest extends Ct600RequestBase {
  kind: "delete";
}

export type Ct600Request = Ct600SubmitRequest | Ct600PollRequest | Ct600DeleteRequest;

function readReturn(body: Element | undefined): Ct600ReturnSummary {
  const envelope = body ? childElement(body, "IRenvelope", NS.ct) : undefined;
  const at = (path: string[]) => (envelope ? textAt(envelope, path, NS.ct) : undefined);
  const header = envelope ? childElement(envelope, "IRheader", NS.ct) : undefined;
  const keys = header ? childElement(header, "Keys", NS.ct) : undefined;
  const utrKey = keys ? childElements(keys, "Key", NS.ct).find((key) => key.getAttribute("Type") === "UTR") : undefined;
  const info = ["CompanyTaxReturn", "CompanyInformation"];
  return {
    utr: utrKey ? textOf(utrKey) : undefined,
    periodEnd: at(["IRheader", "PeriodEnd"]),
    companyName: at([...info, "CompanyName"]),
    companyNumber: at([...info, "RegistrationNumber"]),
    reference: at([...info, "Reference"]),
    periodFrom: at([...info, "PeriodCovered", "From"]),
    periodTo: at([...info, "PeriodCovered", "To"]),
    declarantName: at(["CompanyTaxReturn", "Declaration", "Name"]),
    declarantStatus: at(["CompanyTaxReturn", "Declaration", "Status"]),
  };
}

/**
 * Reads a request sent to the tax transaction engine (submit, poll or delete), for the
 * simulator. Throws GovTalkXmlError for malformed XML or a Qualifier/Function pair the
 * protocol does not define (answer those with error 1001).
 */
export function parseCt600Request(xml: string): Ct600Request {
  const document = parseXml(xml);
  const envelope = readGovTalkEnvelope(document);
  const base: Ct600RequestBase = {
    envelope,
    class: envelope.class,
    gatewayTest: envelope.gatewayTest ?? false,
    correlationId: envelope.correlationId,
  };
  if (envelope.qualifier === "poll") return { ...base, kind: "poll" };
  if (envelope.qualifier === "request" && envelope.function === "delete") return { ...base, kind: "delete" };
  if (envelope.qualifier !== "request" || envelope.function !== "submit") {
    throw new GovTalkXmlError(
      `unsupported request: Qualifier ${JSON.stringify(envelope.qualifier)}, Function ${JSON.stringify(envelope.function)}`,
    );
  }
  const declared = envelope.body ? irmarkElements(envelope.body).map(textOf)[0] : undefined;
  const declaredIRmark = declared === "" ? undefined : declared;
  const computedIRmark = computeIRmark(document);
  return {
    ...base,
    kind: "submit",
    senderId: envelope.sender?.senderId,
    authentication: envelope.sender?.authentications[0],
    utrKey: envelope.keys.find((key) => key.type === "UTR")?.value,
    declaredIRmark,
    computedIRmark,
    irmarkStatus: declaredIRmark === undefined ? "missing" : declaredIRmark === computedIRmark.base64 ? "valid" : "incorrect",
    return: readReturn(envelope.body),
  };
}
