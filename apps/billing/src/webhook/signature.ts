import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The payment provider signs each webhook request (Stripe's scheme):
 *   X-Payment-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 * Several v1 entries may be present (the provider rolling its secret); one must match. The
 * timestamp is signed too, so a captured request cannot be replayed once it is older than the
 * tolerance; within it, a replay is a duplicate payment id and changes nothing.
 */
export const SIGNATURE_HEADER = "x-payment-signature";

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: "missing" | "malformed" | "stale" | "mismatch" };

function expectedSignature(secret: string, timestamp: string, rawBody: Buffer): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest();
}

/** The header value for a body signed at `timestampSeconds` (what the provider sends). */
export function signPaymentWebhook(secret: string, timestampSeconds: number, rawBody: Buffer | string): string {
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  return `t=${timestampSeconds},v1=${expectedSignature(secret, String(timestampSeconds), body).toString("hex")}`;
}

/** Checks the header against the exact bytes received, in constant time per candidate. */
export function verifyPaymentSignature(options: {
  header: string | undefined;
  rawBody: Buffer;
  secret: string;
  toleranceSeconds: number;
  nowSeconds: number;
}): SignatureCheck {
  const { header } = options;
  if (!header) return { ok: false, reason: "missing" };
  let timestamp: string | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(",")) {
    const [key, value, ...rest] = part.trim().split("=");
    if (rest.length > 0 || value === undefined) return { ok: false, reason: "malformed" };
    if (key === "t") timestamp = value;
    else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/.test(value)) return { ok: false, reason: "malformed" };
      candidates.push(Buffer.from(value, "hex"));
    }
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp) || candidates.length === 0) return { ok: false, reason: "malformed" };
  const seconds = Number(timestamp);
  if (Math.abs(options.nowSeconds - seconds) > options.toleranceSeconds) return { ok: false, reason: "stale" };
  const expected = expectedSignature(options.secret, timestamp, options.rawBody);
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(candidate, expected) || matched;
  return matched ? { ok: true, timestamp: seconds } : { ok: false, reason: "mismatch" };
}
