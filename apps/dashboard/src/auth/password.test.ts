import { describe, expect, it } from "vitest";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./password.ts";

describe("scrypt password hashes", () => {
  it("stores the parameters, a random salt and the hash; verifies only the right password", async () => {
    const first = await hashPassword("correct horse battery");
    const second = await hashPassword("correct horse battery");
    expect(first).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(first).not.toBe(second);
    await expect(verifyPassword("correct horse battery", first)).resolves.toBe(true);
    await expect(verifyPassword("correct horse batterY", first)).resolves.toBe(false);
    await expect(verifyPassword("", first)).resolves.toBe(false);
  });

  it("treats a malformed or absurd hash as no match", async () => {
    await expect(verifyPassword("x", "plain")).resolves.toBe(false);
    await expect(verifyPassword("x", "scrypt$30$8$1$AAAA$BBBB")).resolves.toBe(false);
    await expect(verifyPassword("x", "scrypt$15$8$1$AAAA$")).resolves.toBe(false);
  });

  it("has a dummy hash no password matches (checked for unknown emails)", async () => {
    const dummy = await dummyPasswordHash();
    await expect(verifyPassword("correct horse battery", dummy)).resolves.toBe(false);
  });
});
