import { describe, expect, it } from "vitest";
import { formatApiKey, generateApiKey, KEY_ID_LENGTH, parseApiKey, SECRET_LENGTH } from "./format.ts";
import { randomBase62 } from "./random.ts";

const keyId = "AbCdEfGh12345678";
const secret = `${"s".repeat(20)}0123456789ABCDEFGHIJKLM`;

describe("API key format", () => {
  it("parses well-formed live and test keys", () => {
    expect(parseApiKey(`api_live_${keyId}_${secret}`)).toEqual({ mode: "live", keyId, secret });
    expect(parseApiKey(`api_test_${keyId}_${secret}`)).toEqual({ mode: "test", keyId, secret });
  });

  it.each([
    ["wrong prefix", `key_live_${keyId}_${secret}`],
    ["unknown mode", `api_prod_${keyId}_${secret}`],
    ["upper-case prefix", `API_LIVE_${keyId}_${secret}`],
    ["no key id", `api_live__${secret}`],
    ["short key id", `api_live_${keyId.slice(1)}_${secret}x`],
    ["short secret", `api_live_${keyId}_${secret.slice(1)}`],
    ["long secret", `api_live_${keyId}_${secret}x`],
    ["underscore inside the secret", `api_live_${keyId}_${secret.slice(0, 10)}_${secret.slice(11)}`],
    ["dash inside the secret", `api_live_${keyId}_${secret.slice(0, 10)}-${secret.slice(11)}`],
    ["extra part", `api_live_x_${keyId}_${secret}`],
    ["surrounding space", ` api_live_${keyId}_${secret}`],
    ["trailing newline", `api_live_${keyId}_${secret.slice(1)}\n`],
    ["empty", ""],
    ["non-ASCII letter", `api_live_${keyId}_${secret.slice(1)}é`],
  ])("rejects a malformed key (%s)", (_, raw) => {
    expect(parseApiKey(raw)).toBeNull();
  });

  it("generates keys that parse back, with base62 parts of the documented lengths", () => {
    const seen = new Set<string>();
    for (const mode of ["live", "test"] as const) {
      for (let i = 0; i < 50; i++) {
        const key = generateApiKey(mode);
        expect(key.keyId).toMatch(new RegExp(`^[0-9A-Za-z]{${KEY_ID_LENGTH}}$`));
        expect(key.secret).toMatch(new RegExp(`^[0-9A-Za-z]{${SECRET_LENGTH}}$`));
        expect(parseApiKey(formatApiKey(key))).toEqual(key);
        seen.add(key.keyId);
      }
    }
    expect(seen.size).toBe(100);
  });

  it("draws every base62 character, roughly uniformly", () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800); // expected 1,000 each
  });
});
