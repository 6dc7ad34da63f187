/**
 * The IRmark is carried in the return as base64 of a SHA-1 digest (28 characters); the tax
 * authority's receipt quotes the same digest in RFC 4648 base32 (32 characters).
 */

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const SHA1_BYTES = 20;

function decodeIrmark(base64: string): Buffer | undefined {
  const digest = Buffer.from(base64, "base64");
  return digest.length === SHA1_BYTES && digest.toString("base64") === base64 ? digest : undefined;
}

export function isIrmark(base64: string): boolean {
  return decodeIrmark(base64) !== undefined;
}

/** `YrgW02ybxWOff7gHrELynhp1gRw=` -> `MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4`. */
export function irmarkBase32(base64: string): string {
  const digest = decodeIrmark(base64);
  if (digest === undefined) throw new RangeError(`Not a base64 SHA-1 IRmark: ${JSON.stringify(base64)}`);
  let output = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of digest) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      output += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return output;
}
