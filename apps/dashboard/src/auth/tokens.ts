import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A random 256-bit secret, base64url (43 characters): session ids, CSRF tokens, setup tokens. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** `prefix` and 22 random base62 characters (ids of rows). */
export function randomId(prefix: string): string {
  const bytes = randomBytes(22);
  let id = prefix;
  for (const byte of bytes) id += BASE62[byte % 62];
  return id;
}

/** SHA-256 hex of a token: what is stored instead of the token (a leaked dump opens nothing). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Compares two secrets in constant time (for equal lengths; a length difference answers false at once). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
