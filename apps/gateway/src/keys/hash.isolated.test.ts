import * as crypto from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createSecretHasher } from "./hash.ts";

// Spy on (not replace) Node's timingSafeEqual to prove the comparison goes through it.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const pepper = "p".repeat(40);

describe("secret hashing", () => {
  beforeEach(() => {
    vi.mocked(crypto.timingSafeEqual).mockClear();
  });

  it("stores a keyed SHA-256 (HMAC) of the secret, never the secret", () => {
    const hasher = createSecretHasher(pepper);
    const hash = hasher.hash("secret-one");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(crypto.createHmac("sha256", pepper).update("secret-one").digest("hex"));
    expect(hash).not.toBe(crypto.createHash("sha256").update("secret-one").digest("hex"));
    expect(createSecretHasher("q".repeat(40)).hash("secret-one")).not.toBe(hash);
  });

  it("compares in constant time, for right and wrong secrets alike", () => {
    const hasher = createSecretHasher(pepper);
    const stored = hasher.hash("secret-one");
    expect(hasher.matches("secret-one", stored)).toBe(true);
    expect(hasher.matches("secret-two", stored)).toBe(false);
    const calls = vi.mocked(crypto.timingSafeEqual).mock.calls;
    expect(calls).toHaveLength(2);
    for (const [a, b] of calls) expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
  });

  it("rejects a short pepper", () => {
    expect(() => createSecretHasher("short")).toThrow(/at least 32/);
  });
});
