import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openSealedSecret, sealSecret, sealingKeyFromBase64, SealedSecret } from "../index.ts";

const key = sealingKeyFromBase64("k1", randomBytes(32).toString("base64"));
const secret = { government_gateway_id: "user", government_gateway_password: "pa55word" };

describe("sealed secrets", () => {
  it("round-trips and never carries the plain text", () => {
    const sealed = sealSecret(secret, key, "credentials:acc:idem");
    expect(SealedSecret.parse(sealed)).toEqual(sealed);
    expect(JSON.stringify(sealed)).not.toContain("pa55word");
    expect(openSealedSecret(sealed, [key], "credentials:acc:idem")).toEqual(secret);
  });

  it("does not open under another binding, another key, or once altered", () => {
    const sealed = sealSecret(secret, key, "credentials:acc:idem");
    expect(() => openSealedSecret(sealed, [key], "credentials:acc:other")).toThrow();
    const other = sealingKeyFromBase64("k1", randomBytes(32).toString("base64"));
    expect(() => openSealedSecret(sealed, [other], "credentials:acc:idem")).toThrow();
    expect(() => openSealedSecret({ ...sealed, kid: "k2" }, [key], "credentials:acc:idem")).toThrow(/no sealing key/);
    const flipped = Buffer.from(sealed.ciphertext, "base64");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => openSealedSecret({ ...sealed, ciphertext: flipped.toString("base64") }, [key], "credentials:acc:idem")).toThrow();
  });

  it("refuses keys of the wrong size", () => {
    expect(() => sealingKeyFromBase64("short", randomBytes(16).toString("base64"))).toThrow(/32 bytes/);
  });
});
