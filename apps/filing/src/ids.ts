import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 62^22 > 2^128: every 128-bit value fits in 22 characters. */
const ID_LENGTH = 22;

/** 128 random bits written in base62, always 22 characters. */
export function randomBase62Id(): string {
  let value = BigInt(`0x${randomBytes(16).toString("hex")}`);
  let text = "";
  for (let i = 0; i < ID_LENGTH; i++) {
    text = BASE62[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text;
}

/** A live filing id: `fil_` and 128 random bits, unguessable (never `fil_test_...`). */
export function newFilingId(): string {
  return `fil_${randomBase62Id()}`;
}
