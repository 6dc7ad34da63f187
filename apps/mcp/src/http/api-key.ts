import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** The caller's API key: `X-API-Key`, else `Authorization: Bearer <key>`; undefined when neither is given. */
export function apiKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers["x-api-key"];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct?.trim()) return direct.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? "");
  return bearer?.[1];
}

/** What a session keeps of its key to recognise it later: a digest, never the key's text in a log or a comparison. */
export function keyDigest(apiKey: string): Buffer {
  return createHash("sha256").update(apiKey, "utf8").digest();
}

export function sameKey(digest: Buffer, apiKey: string): boolean {
  return timingSafeEqual(digest, keyDigest(apiKey));
}
