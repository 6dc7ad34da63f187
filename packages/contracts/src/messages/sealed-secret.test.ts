import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, openSealedCredentials, openSealedSecret, sealSecret, sealingKeyFromBase64, SealedSecret } from "../index.ts";

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

  it("refuses a truncated tag: GCM tags are pinned to 16 bytes", () => {
    const sealed = sealSecret(secret, key, "credentials:acc:idem");
    const tag = Buffer.from(sealed.tag, "base64");
    expect(tag).toHaveLength(16);
    // A GCM tag cut short is a prefix of the right one: without a pinned length it would verify,
    // and a forger would only have to guess 4 bytes.
    for (const length of [4, 8, 12, 15]) {
      const truncated = { ...sealed, tag: tag.subarray(0, length).toString("base64") };
      expect(() => openSealedSecret(truncated, [key], "credentials:acc:idem"), `${length} bytes`).toThrow(/16 bytes/);
    }
    expect(() =>
      openSealedSecret({ ...sealed, tag: Buffer.concat([tag, Buffer.from([0])]).toString("base64") }, [key], "credentials:acc:idem"),
    ).toThrow();
  });

  it("refuses keys of the wrong size", () => {
    expect(() => sealingKeyFromBase64("short", randomBytes(16).toString("base64"))).toThrow(/32 bytes/);
  });

  describe("openSealedCredentials", () => {
    const Credentials = z.object({ government_gateway_id: z.string(), government_gateway_password: z.string() });
    const binding = "submission:filing-1:part-1";

    function refusalOf(open: () => unknown): AppError {
      try {
        open();
      } catch (error) {
        if (error instanceof AppError) return error;
        throw error;
      }
      throw new Error("expected a refusal");
    }

    it("gives the credentials back, checked against their schema", () => {
      const sealed = sealSecret(secret, key, binding);
      expect(openSealedCredentials(sealed, [key], binding, Credentials)).toEqual(secret);
    });

    it("refuses a value that does not open (another binding, another key, altered) with INTERNAL_ERROR, saying nothing of it", () => {
      const sealed = sealSecret(secret, key, binding);
      const flipped = Buffer.from(sealed.ciphertext, "base64");
      flipped[0] = (flipped[0] ?? 0) ^ 1;
      const other = sealingKeyFromBase64("k1", randomBytes(32).toString("base64"));
      for (const open of [
        () => openSealedCredentials(sealed, [key], "submission:filing-1:part-2", Credentials),
        () => openSealedCredentials(sealed, [other], binding, Credentials),
        () => openSealedCredentials({ ...sealed, kid: "k2" }, [key], binding, Credentials),
        () => openSealedCredentials({ ...sealed, ciphertext: flipped.toString("base64") }, [key], binding, Credentials),
      ]) {
        const refusal = refusalOf(open);
        expect(refusal.code).toBe("INTERNAL_ERROR");
        expect(refusal.retryable).toBe(false);
        expect(refusal.message).not.toMatch(/user|pa55word/);
      }
    });

    it("refuses a value of another shape with INTERNAL_ERROR, saying nothing of it", () => {
      const sealed = sealSecret({ company_auth_code: "SECRET1" }, key, binding);
      const refusal = refusalOf(() => openSealedCredentials(sealed, [key], binding, Credentials));
      expect(refusal.code).toBe("INTERNAL_ERROR");
      expect(refusal.retryable).toBe(false);
      expect(refusal.message).not.toContain("SECRET1");
    });
  });
});
