import type { Document } from "@xmldom/xmldom";
import { readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkXmlError } from "../errors.ts";
import { irmarkCanonicalBody } from "../irmark/compute.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";

/** What replaces the password. */
export const PASSWORD_MASK = "********";

const HEADER_END = /<\/(?:[A-Za-z_][\w.-]*:)?Header\s*>/;
const VALUE = /(<((?:[A-Za-z_][\w.-]*:)?)Value(?:\s[^>]*)?>)[\s\S]*?(<\/\2Value\s*>)/g;

function authenticationValues(document: Document): string[] {
  return (readGovTalkEnvelope(document).sender?.authentications ?? []).map((authentication) => authentication.value);
}

function canonicalBody(document: Document): string | undefined {
  const root = document.documentElement;
  const hasBody = root ? root.getElementsByTagNameNS(NS.envelope, "Body").length > 0 : false;
  return hasBody ? irmarkCanonicalBody(document) : undefined;
}

/**
 * Replaces the content of every `Header/SenderDetails/IDAuthentication/Authentication/Value` with
 * `********`, changing no other byte: the Body, and so the IRmark, stay exactly as submitted.
 * Use it before storing a submitted message. The result is checked (every Value masked, Body
 * canonically identical); if that cannot be guaranteed it throws rather than return the password.
 */
export function maskGatewayPassword(xml: string): string {
  const original = parseXml(xml);
  if (authenticationValues(original).every((value) => value === "" || value === PASSWORD_MASK)) return xml;
  const headerEnd = HEADER_END.exec(xml);
  if (!headerEnd) throw new GovTalkXmlError("cannot mask the password: no Header end tag");
  const split = headerEnd.index + headerEnd[0].length;
  const masked = xml.slice(0, split).replace(VALUE, `$1${PASSWORD_MASK}$3`) + xml.slice(split);

  const result = parseXml(masked);
  const allMasked = authenticationValues(result).every((value) => value === PASSWORD_MASK || value === "");
  if (!allMasked || canonicalBody(result) !== canonicalBody(original)) {
    throw new GovTalkXmlError("cannot mask the password: the Header has an unexpected shape");
  }
  return masked;
}
