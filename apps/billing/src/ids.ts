import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `<prefix>_` and 20 random base62 characters (rejection sampling: no modulo bias), e.g. `hold_...`. */
export function newId(prefix: "hold" | "top" | "pay" | "rev"): string {
  let id = "";
  while (id.length < 20) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && id.length < 20) id += ALPHABET[byte % 62];
    }
  }
  return `${prefix}_${id}`;
}
