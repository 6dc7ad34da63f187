import { describe, expect, it } from "vitest";
import { retryWait, scheduledWait } from "./retry-schedule.ts";

describe("retryWait", () => {
  const policy = { maxAttempts: 5, backoffMs: [1000, 5000, 30_000], jitter: 0.2 };

  it("uses the backoff of the failed attempt, repeating the last one", () => {
    expect([1, 2, 3, 4, 9].map((attempt) => retryWait(policy, attempt, () => 0).tierMs)).toEqual([1000, 5000, 30_000, 30_000, 30_000]);
  });

  it("shortens the wait by at most the jitter share, never lengthens it", () => {
    expect(retryWait(policy, 2, () => 0).expirationMs).toBe(5000);
    expect(retryWait(policy, 2, () => 0.5).expirationMs).toBe(4500);
    expect(retryWait(policy, 2, () => 0.999_999).expirationMs).toBe(4000);
  });
});

describe("scheduledWait", () => {
  const tiers = [1000, 2000, 5000, 60_000];

  it("parks a delay in the smallest tier at least as long, expiring after exactly the delay", () => {
    expect(scheduledWait(tiers, 1000)).toEqual({ tierMs: 1000, expirationMs: 1000 });
    expect(scheduledWait(tiers, 3000)).toEqual({ tierMs: 5000, expirationMs: 3000 });
    expect(scheduledWait(tiers, 1)).toEqual({ tierMs: 1000, expirationMs: 1 });
  });

  it("refuses a delay longer than the longest tier", () => {
    expect(() => scheduledWait(tiers, 60_001)).toThrow(RangeError);
  });
});
