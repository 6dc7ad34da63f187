import type { Element } from "@xmldom/xmldom";
import { childElement, descendants, textOf } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";

/**
 * The `IRmarkReceipt` of a success response. Its XML signature is not verified here (the
 * authority's signing certificate is not available offline); what matters to a worker is that
 * the digest and the base32 IRmark quoted are the ones it sent (see receiptConfirmsIRmark).
 */
export interface IRmarkReceipt {
  /** `dsig:DigestValue`: the IRmark the authority computed, base64. */
  digestBase64: string | undefined;
  /** The base32 IRmark quoted in the `Message code="0000"` text. */
  irmarkBase32: string | undefined;
  /** The receipt message text. */
  message: string | undefined;
}

/** Reads the receipt under a `SuccessResponse` (all fields undefined when it has none). */
export function readIRmarkReceipt(successResponse: Element): IRmarkReceipt {
  const receipt = childElement(successResponse, "IRmarkReceipt", NS.successResponse);
  if (!receipt) return { digestBase64: undefined, irmarkBase32: undefined, message: undefined };
  const digest = descendants(receipt, "DigestValue", NS.xmldsig)[0];
  const message = descendants(receipt, "Message", NS.successResponse)[0];
  const text = message ? textOf(message) : undefined;
  return {
    digestBase64: digest ? textOf(digest) : undefined,
    irmarkBase32: /IRmark was:\s*([A-Z2-7]{32})/.exec(text ?? "")?.[1],
    message: text,
  };
}

/** True when the receipt quotes this IRmark (base64 digest and, when present, base32 text agree). */
export function receiptConfirmsIRmark(receipt: IRmarkReceipt, irmark: { base64: string; base32: string }): boolean {
  if (receipt.digestBase64 === undefined && receipt.irmarkBase32 === undefined) return false;
  if (receipt.digestBase64 !== undefined && receipt.digestBase64 !== irmark.base64) return false;
  return receipt.irmarkBase32 === undefined || receipt.irmarkBase32 === irmark.base32;
}
