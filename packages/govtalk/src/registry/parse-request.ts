import type { Document, Element } from "@xmldom/xmldom";
import { readGovTalkEnvelope, type GovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkXmlError } from "../errors.ts";
import { childElement, textAt } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";
import { REGISTRY_ACCOUNTS_CLASS, REGISTRY_STATUS_CLASS } from "./constants.ts";

interface RegistryRequestBase {
  envelope: GovTalkEnvelope;
  transactionId: string | undefined;
  gatewayTest: boolean;
  /** `GatewayTest` exactly as received (undefined when absent), for checking its value. */
  gatewayTestText: string | undefined;
  /** MD5 hex of the presenter ID, as received. */
  senderId: string | undefined;
  /** `Authentication/Method` (`clear` or `CHMD5`). */
  authenticationMethod: string | undefined;
  /** MD5 hex of the presenter authentication code, as received. */
  authenticationValue: string | undefined;
}

/** An accounts FormSubmission as the registry receives it (lenient: undefined where absent). */
export interface RegistryFormSubmissionRequest extends RegistryRequestBase {
  kind: "FormSubmission";
  /** `FormSubmission/@xsi:schemaLocation`; undefined when absent. */
  schemaLocation: string | undefined;
  form: {
    companyNumber: string | undefined;
    companyType: string | undefined;
    companyName: string | undefined;
    companyAuthCode: string | undefined;
    packageReference: string | undefined;
    language: string | undefined;
    formIdentifier: string | undefined;
    submissionNumber: string | undefined;
    contactName: string | undefined;
    contactNumber: string | undefined;
    dateSigned: string | undefined;
    document: {
      /** `Data` as sent (base64). */
      data: string | undefined;
      /** `Data` decoded; undefined when absent or not valid base64. */
      bytes: Buffer | undefined;
      date: string | undefined;
      filename: string | undefined;
      contentType: string | undefined;
      category: string | undefined;
    };
  };
}

/** A GetSubmissionStatus poll as the registry receives it. */
export interface RegistryStatusRequest extends RegistryRequestBase {
  kind: "GetSubmissionStatus";
  submissionNumber: string | undefined;
  companyNumber: string | undefined;
  presenterId: string | undefined;
}

export type RegistryRequest = RegistryFormSubmissionRequest | RegistryStatusRequest;

/** Strict base64 (whitespace allowed between groups): undefined when it is not. */
function decodeBase64(data: string | undefined): Buffer | undefined {
  if (data === undefined) return undefined;
  const compact = data.replace(/\s+/g, "");
  if (compact === "" || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  return Buffer.from(compact, "base64");
}

function readForm(submission: Element): RegistryFormSubmissionRequest["form"] {
  const at = (path: string[]) => textAt(submission, path, NS.registryHeader);
  const header = (name: string) => at(["FormHeader", name]);
  const data = childElement(submission, "Document", NS.registryHeader) ? at(["Document", "Data"]) : undefined;
  return {
    companyNumber: header("CompanyNumber"),
    companyType: header("CompanyType"),
    companyName: header("CompanyName"),
    companyAuthCode: header("CompanyAuthenticationCode"),
    packageReference: header("PackageReference"),
    language: header("Language"),
    formIdentifier: header("FormIdentifier"),
    submissionNumber: header("SubmissionNumber"),
    contactName: header("ContactName"),
    contactNumber: header("ContactNumber"),
    dateSigned: at(["DateSigned"]),
    document: {
      data,
      bytes: decodeBase64(data),
      date: at(["Document", "Date"]),
      filename: at(["Document", "Filename"]),
      contentType: at(["Document", "ContentType"]),
      category: at(["Document", "Category"]),
    },
  };
}

/** `Header/MessageDetails/GatewayTest` as written (trimmed), undefined when absent. */
function gatewayTestText(document: Document): string | undefined {
  const root = document.documentElement;
  const header = root ? childElement(root, "Header", NS.envelope) : undefined;
  const details = header ? childElement(header, "MessageDetails", NS.envelope) : undefined;
  return details ? textAt(details, ["GatewayTest"], NS.envelope) : undefined;
}

/**
 * Reads a request sent to the registry's XML gateway (accounts FormSubmission or
 * GetSubmissionStatus), for the simulator. Throws GovTalkXmlError for malformed XML or any
 * other class/body.
 */
export function parseRegistryRequest(xml: string): RegistryRequest {
  const document = parseXml(xml);
  const envelope = readGovTalkEnvelope(document);
  const authentication = envelope.sender?.authentications[0];
  const base: RegistryRequestBase = {
    envelope,
    transactionId: envelope.transactionId,
    gatewayTest: envelope.gatewayTest ?? false,
    gatewayTestText: gatewayTestText(document),
    senderId: envelope.sender?.senderId,
    authenticationMethod: authentication?.method,
    authenticationValue: authentication?.value,
  };
  const body = envelope.body;
  const submission = body ? childElement(body, "FormSubmission", NS.registryHeader) : undefined;
  if (envelope.class === REGISTRY_ACCOUNTS_CLASS && submission) {
    const schemaLocation = submission.hasAttributeNS(NS.xsi, "schemaLocation")
      ? (submission.getAttributeNS(NS.xsi, "schemaLocation") ?? undefined)
      : undefined;
    return { ...base, kind: "FormSubmission", schemaLocation, form: readForm(submission) };
  }
  const status = body ? childElement(body, "GetSubmissionStatus", NS.registry) : undefined;
  if (envelope.class === REGISTRY_STATUS_CLASS && status) {
    return {
      ...base,
      kind: "GetSubmissionStatus",
      submissionNumber: textAt(status, ["SubmissionNumber"], NS.registry),
      companyNumber: textAt(status, ["CompanyNumber"], NS.registry),
      presenterId: textAt(status, ["PresenterID"], NS.registry),
    };
  }
  throw new GovTalkXmlError(`unsupported registry request: Class ${JSON.stringify(envelope.class)}`);
}
