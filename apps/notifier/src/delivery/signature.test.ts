import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { WEBHOOK_SECRET_PATTERN } from "@dormant/contracts";
import { nextRetry } from "./schedule.ts";
import { newWebhookSecret, signWebhook } from "./signature.ts";

// Signatures are checked with the standardwebhooks package, never with our own code.
describe("webhook signatures", () => {
  it("are verified by the standardwebhooks package", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    const body = JSON.stringify({ id: "evt_0123456789abcdef", type: "webhook.test", data: { note: "ünïcode" } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      "webhook-id": "evt_0123456789abcdef",
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook([secret], "evt_0123456789abcdef", timestamp, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it("sign with both secrets during a rotation: either verifies", () => {
    const [previous, current] = [newWebhookSecret(), newWebhookSecret()];
    const body = "{}";
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signWebhook([current, previous], "evt_0123456789abcdef", timestamp, body);
    expect(signature.split(" ")).toHaveLength(2);
    const headers = { "webhook-id": "evt_0123456789abcdef", "webhook-timestamp": String(timestamp), "webhook-signature": signature };
    expect(new Webhook(current).verify(body, headers)).toEqual({});
    expect(new Webhook(previous).verify(body, headers)).toEqual({});
  });
});

describe("retry schedule", () => {
  const schedule = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 43_200];
  const horizon = 3 * 24 * 60 * 60;

  it("retries twice within a minute of the first attempt, then backs off up to every 12 h for 3 days", () => {
    const first = new Date("2026-01-01T00:00:00Z");
    let now = first;
    const waits: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const retry = nextRetry(schedule, horizon, attempt, first, now);
      if (!retry) break;
      waits.push(retry.delayMs / 1000);
      now = retry.retryAt;
    }
    expect(waits[0]! + waits[1]!).toBeLessThan(60);
    expect(waits.slice(0, 10)).toEqual(schedule);
    expect(waits.slice(10).every((wait) => wait === 43_200)).toBe(true);
    const lastAttemptAfterSeconds = (now.getTime() - first.getTime()) / 1000;
    expect(lastAttemptAfterSeconds).toBeLessThanOrEqual(horizon);
    expect(lastAttemptAfterSeconds).toBeGreaterThan(horizon - 43_200);
  });
});
