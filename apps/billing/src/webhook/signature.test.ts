import { describe, expect, it } from "vitest";
import { signPaymentWebhook, verifyPaymentSignature } from "./signature.ts";

const secret = "whsec_test_0123456789abcdef0123456789abcdef";
const body = Buffer.from('{"payment_id":"pay_1","amount":"50.00"}');
const now = 1_750_000_000;
const check = (header: string | undefined, overrides: Partial<Parameters<typeof verifyPaymentSignature>[0]> = {}) =>
  verifyPaymentSignature({ header, rawBody: body, secret, toleranceSeconds: 300, nowSeconds: now, ...overrides });

describe("payment webhook signatures", () => {
  it("accepts the provider's signature of the exact body within the tolerance", () => {
    expect(check(signPaymentWebhook(secret, now, body))).toEqual({ ok: true, timestamp: now });
    expect(check(signPaymentWebhook(secret, now - 300, body))).toEqual({ ok: true, timestamp: now - 300 });
    expect(check(signPaymentWebhook(secret, now + 300, body))).toEqual({ ok: true, timestamp: now + 300 });
  });

  it("matches the documented construction: hex HMAC-SHA256 over '<t>.<body>'", () => {
    // Same value as: printf '%s' "1750000000.$BODY" | openssl dgst -sha256 -hmac "$SECRET" -hex
    expect(signPaymentWebhook("secret", 1_750_000_000, "{}")).toBe(
      "t=1750000000,v1=3fdabae93ac0fe8268882d2fd7845e468dd959a74561c9900a0af5b0a1bcc50a",
    );
  });

  it("accepts when any one of several v1 signatures matches (secret rolling)", () => {
    const good = signPaymentWebhook(secret, now, body).split(",")[1]!;
    const other = signPaymentWebhook("another-secret-another-secret-xx", now, body).split(",")[1]!;
    expect(check(`t=${now},${other},${good}`)).toEqual({ ok: true, timestamp: now });
  });

  it("refuses a missing, malformed, stale or wrong signature", () => {
    expect(check(undefined)).toEqual({ ok: false, reason: "missing" });
    for (const header of [
      "",
      "t=1",
      `v1=${"a".repeat(64)}`,
      `t=abc,v1=${"a".repeat(64)}`,
      `t=${now},v1=xyz`,
      `t=${now},v1=${"a".repeat(64)}=`,
    ]) {
      expect(check(header || "garbage")).toEqual({ ok: false, reason: "malformed" });
    }
    expect(check(signPaymentWebhook(secret, now - 301, body))).toEqual({ ok: false, reason: "stale" });
    expect(check(signPaymentWebhook(secret, now + 301, body))).toEqual({ ok: false, reason: "stale" });
    expect(check(signPaymentWebhook("not-the-secret-not-the-secret-xx", now, body))).toEqual({ ok: false, reason: "mismatch" });
    expect(check(signPaymentWebhook(secret, now, body), { rawBody: Buffer.from('{"payment_id":"pay_1","amount":"5000.00"}') })).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });
});
