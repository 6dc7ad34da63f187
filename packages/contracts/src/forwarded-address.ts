import { createHmac, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/**
 * The caller's address as the MCP server vouches for it to the gateway. The MCP server calls the
 * gateway from its own address for every MCP user; with this header, signed with a secret only
 * the two hold, the gateway counts failed authentications per MCP caller instead of one bucket
 * for all of them. Anyone else's copy of the header is ignored (no proof, a stale one, or another
 * secret): the gateway then uses the connection's own address, as for any client.
 *
 * Value: `v1.<unix seconds>.<address>.<signature>`, the signature base64url of
 * HMAC-SHA256(secret, "v1.<unix seconds>.<address>"). Addresses are IPv4 or IPv6 text (no dots
 * are needed to split: the signature and the timestamp hold none, the address is what lies
 * between them).
 */
export const FORWARDED_ADDRESS_HEADER = "X-Dormant-Client-Address";

/** How far a proof's time may be from the verifier's clock, either way. */
export const FORWARDED_ADDRESS_MAX_SKEW_SECONDS = 60;

/** The shortest secret either side accepts (bytes of text). */
export const FORWARDED_ADDRESS_SECRET_MIN_LENGTH = 32;

function signatureOf(secret: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(payload, "utf8").digest();
}

/** The header's value for `address` at `nowMs`. */
export function signForwardedAddress(secret: string, address: string, nowMs: number = Date.now()): string {
  const payload = `v1.${Math.floor(nowMs / 1000)}.${address}`;
  return `${payload}.${signatureOf(secret, payload).toString("base64url")}`;
}

/**
 * The address a header vouches for, or undefined when it does not prove itself: malformed, not
 * an IP address, signed more than the allowed skew away from `nowMs`, or signed with another
 * secret (compared in constant time).
 */
export function verifyForwardedAddress(secret: string, value: string | undefined, nowMs: number = Date.now()): string | undefined {
  if (!value || value.length > 200) return undefined;
  const match = /^v1\.(\d{1,12})\.([0-9A-Fa-f.:]{2,45})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return undefined;
  const [, seconds, address, signature] = match as unknown as [string, string, string, string];
  if (isIP(address) === 0) return undefined;
  if (Math.abs(Number(seconds) - nowMs / 1000) > FORWARDED_ADDRESS_MAX_SKEW_SECONDS) return undefined;
  const expected = signatureOf(secret, `v1.${seconds}.${address}`);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return address;
}
