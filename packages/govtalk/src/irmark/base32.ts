const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 (upper case, `=` padded) of some bytes. */
export function base32Encode(bytes: Uint8Array): string {
  let output = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) output += ALPHABET[(buffer << (5 - bits)) & 31];
  while (output.length % 8 !== 0) output += "=";
  return output;
}

/**
 * The base32 form in which the tax authority quotes an IRmark on receipts (32 characters for
 * the 20-byte SHA-1 digest), from the base64 form carried in the return (28 characters).
 */
export function irmarkToBase32(irmarkBase64: string): string {
  const digest = Buffer.from(irmarkBase64, "base64");
  if (digest.length !== 20 || digest.toString("base64") !== irmarkBase64) {
    throw new RangeError(`not a base64 SHA-1 IRmark: ${JSON.stringify(irmarkBase64)}`);
  }
  return base32Encode(digest);
}
