import { maskGatewayPassword, PASSWORD_MASK } from "@dormant/govtalk";
import type { Target } from "./received-log.ts";

/**
 * The registry's secrets: the presenter's `SenderID` and `Authentication/Value` (MD5 hashes of
 * the presenter ID and authentication code, or the values themselves) and the company's
 * `CompanyAuthenticationCode`. Each element must hold plain text (no markup, comment or CDATA),
 * else the whole body is withheld rather than risk keeping a secret.
 */
const REGISTRY_SECRET_ELEMENT = /(<((?:[A-Za-z_][\w.-]*:)?)(SenderID|Value|CompanyAuthenticationCode)(?:\s[^>]*)?>)[^<]*(<\/\2\3\s*>)/g;
const REGISTRY_SECRET_OPENING = /<(?:[A-Za-z_][\w.-]*:)?(?:SenderID|Value|CompanyAuthenticationCode)(?:\s[^>]*)?>/g;

function maskRegistry(xml: string): string | undefined {
  let masked = 0;
  const text = xml.replace(REGISTRY_SECRET_ELEMENT, (_whole, open: string, _prefix: string, _name: string, close: string) => {
    masked += 1;
    return `${open}${PASSWORD_MASK}${close}`;
  });
  // Every element that may hold a secret must have been masked (self-closing ones are empty).
  const openings = (xml.match(REGISTRY_SECRET_OPENING) ?? []).filter((tag) => !tag.endsWith("/>")).length;
  return openings === masked ? text : undefined;
}

function maskTax(xml: string): string | undefined {
  // Polls and deletes carry no credentials: nothing to mask, and no parse to pay for.
  if (!xml.includes("Value")) return xml;
  try {
    return maskGatewayPassword(xml);
  } catch {
    return undefined;
  }
}

/**
 * A request body as the received log may keep it: the tax password (`Authentication/Value`)
 * replaced by `********` (govtalk's maskGatewayPassword, which checks its result), the registry's
 * presenter credentials and company authentication code likewise. undefined when the body
 * cannot be masked with certainty (it is then not kept at all).
 */
export function maskedBody(target: Target, xml: string): string | undefined {
  switch (target) {
    case "tax":
      return maskTax(xml);
    case "registry":
      return maskRegistry(xml);
    case "registry-data":
      return undefined;
  }
}
