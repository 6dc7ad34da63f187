import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base32Encode, irmarkToBase32 } from "./base32.ts";

/** Straightforward bit-string reference implementation of RFC 4648 base32. */
function referenceBase32(bytes: Uint8Array): string {
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, "0")).join("");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let out = "";
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, "0"), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, "=");
}

describe("base32", () => {
  it("encodes the RFC 4648 test vectors", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "MY======"],
      ["fo", "MZXQ===="],
      ["foo", "MZXW6==="],
      ["foob", "MZXW6YQ="],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI======"],
    ];
    for (const [input, output] of vectors) expect(base32Encode(Buffer.from(input))).toBe(output);
  });

  it("agrees with a reference implementation on any bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => base32Encode(bytes) === referenceBase32(bytes)));
  });

  it("turns a base64 IRmark into the 32-character form quoted on receipts", () => {
    expect(irmarkToBase32("YrgW02ybxWOff7gHrELynhp1gRw=")).toBe("MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4");
    const digest = createHash("sha1").update("x").digest();
    expect(irmarkToBase32(digest.toString("base64"))).toMatch(/^[A-Z2-7]{32}$/);
  });

  it.each(["", "not base64!", "YrgW02ybxWOff7gHrELynhp1gRw", "AAAA"])("refuses %j as an IRmark", (value) => {
    expect(() => irmarkToBase32(value)).toThrow(RangeError);
  });
});
