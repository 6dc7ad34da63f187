import { randomBase62 } from "./random.ts";

export type ApiKeyMode = "live" | "test";

export interface ParsedApiKey {
  mode: ApiKeyMode;
  keyId: string;
  secret: string;
}

/** Public id of a key: 16 base62 characters (95 bits), shown in listings and revocation. */
export const KEY_ID_LENGTH = 16;
/** Secret part: 43 base62 characters, 256 bits from the CSPRNG. */
export const SECRET_LENGTH = 43;

// `_` separates the parts, so neither the key id nor the secret may contain one: base62 only.
const API_KEY_PATTERN = new RegExp(`^api_(live|test)_([0-9A-Za-z]{${KEY_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})$`);
const API_KEY_LENGTH = "api_live_".length + KEY_ID_LENGTH + 1 + SECRET_LENGTH;

/** Splits `api_{live|test}_{key_id}_{secret}`; anything else (case, length, alphabet) is null. */
export function parseApiKey(raw: string): ParsedApiKey | null {
  if (raw.length !== API_KEY_LENGTH) return null;
  const match = API_KEY_PATTERN.exec(raw);
  if (!match) return null;
  const [, mode, keyId, secret] = match;
  return { mode: mode as ApiKeyMode, keyId: keyId!, secret: secret! };
}

export function formatApiKey(key: ParsedApiKey): string {
  return `api_${key.mode}_${key.keyId}_${key.secret}`;
}

/** A fresh key id and secret for `mode`. */
export function generateApiKey(mode: ApiKeyMode): ParsedApiKey {
  return { mode, keyId: randomBase62(KEY_ID_LENGTH), secret: randomBase62(SECRET_LENGTH) };
}
