import { describe, expect, it } from "vitest";
import { afterTransientPollFailure, backoffIntervalSeconds, breakerGraceMs, giveUpAt, nextPoll, pollTimeoutMs } from "./poll-timing.ts";

const now = Date.parse("2026-05-01T10:00:00.000Z");
const inSeconds = (seconds: number) => new Date(now + seconds * 1000).toISOString();

describe("poll timing", () => {
  it("gives up a fixed time after the submission", () => {
    expect(giveUpAt(new Date(now), 20)).toBe("2026-05-01T10:00:20.000Z");
  });

  it("polls again after the interval asked for, never after the give-up instant or the longest delay", () => {
    expect(nextPoll(1, inSeconds(20), 900_000, now)).toEqual({ kind: "poll_again", delayMs: 1000 });
    expect(nextPoll(10, inSeconds(3), 900_000, now)).toEqual({ kind: "poll_again", delayMs: 3000 });
    expect(nextPoll(3600, inSeconds(7200), 900_000, now)).toEqual({ kind: "poll_again", delayMs: 900_000 });
    expect(nextPoll(1, inSeconds(0), 900_000, now)).toEqual({ kind: "give_up" });
    expect(nextPoll(1, inSeconds(-5), 900_000, now)).toEqual({ kind: "give_up" });
  });

  it("backs off while the authority has no decision: the wait doubles from the first interval up to the cap", () => {
    const registry = { initialSeconds: 60, factor: 2, maxSeconds: 3600 };
    const waits = [0, 1, 2, 3, 4, 5, 6, 7, 100, 5000].map((poll) => backoffIntervalSeconds(registry, poll));
    expect(waits).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600, 3600, 3600]);
    // No growth (factor 1), a cap below the first interval, fractional factors: whole seconds, never below the first interval.
    expect(backoffIntervalSeconds({ initialSeconds: 5, factor: 1, maxSeconds: 60 }, 9)).toBe(5);
    expect(backoffIntervalSeconds({ initialSeconds: 5, factor: 2, maxSeconds: 1 }, 3)).toBe(5);
    expect([1, 2, 3].map((poll) => backoffIntervalSeconds({ initialSeconds: 10, factor: 1.5, maxSeconds: 60 }, poll))).toEqual([
      15, 23, 34,
    ]);
  });

  it("a backed-off wait still ends by the give-up instant and fits the poll queue's longest delay", () => {
    const backoff = { initialSeconds: 60, factor: 2, maxSeconds: 3600 };
    // Poll 6 would wait an hour: the 15-minute tier holds it to 15 minutes.
    expect(nextPoll(backoffIntervalSeconds(backoff, 6), inSeconds(14 * 86_400), 900_000, now)).toEqual({
      kind: "poll_again",
      delayMs: 900_000,
    });
    // Ten minutes before the horizon: one last poll at it.
    expect(nextPoll(backoffIntervalSeconds(backoff, 6), inSeconds(600), 900_000, now)).toEqual({ kind: "poll_again", delayMs: 600_000 });
    // 14 days of 15-minute polls after the growth: a bounded number of requests per submission.
    let elapsed = 60;
    let polls = 1;
    for (; elapsed < 14 * 86_400; polls++) elapsed += Math.min(900, backoffIntervalSeconds(backoff, polls));
    expect(polls).toBeLessThan(1350);
    expect(polls).toBeGreaterThan(1300);
  });

  it("after a transient failure: the bus retries while it can before the give-up time, else a fresh poll is scheduled", () => {
    const retry = { maxAttempts: 8, backoffMs: [1000, 2000, 5000, 10_000, 30_000] };
    const after = (attempt: number, giveUpInSeconds: number) =>
      afterTransientPollFailure({ attempt, retry, giveUp: inSeconds(giveUpInSeconds), maxDelayMs: 900_000, now });
    expect(after(1, 10)).toEqual({ kind: "retry" });
    expect(after(3, 10)).toEqual({ kind: "retry" });
    // The 10 s backoff of attempt 4 would come after the give-up instant: poll at it instead.
    expect(after(4, 6)).toEqual({ kind: "reschedule", delayMs: 6000 });
    // Attempts used up: a fresh poll after the last backoff, so nothing is parked.
    expect(after(8, 600)).toEqual({ kind: "reschedule", delayMs: 30_000 });
    expect(after(1, 0)).toEqual({ kind: "give_up" });
  });

  it("a poll never sent (breaker open): past the give-up instant it waits for the breaker, within two breaker cycles", () => {
    const retry = { maxAttempts: 8, backoffMs: [1000, 2000, 5000, 10_000, 30_000] };
    const graceMs = breakerGraceMs({ resetTimeoutMs: 30_000, timeoutMs: 8_000 });
    expect(graceMs).toBe(76_000);
    const after = (giveUpInSeconds: number, retryAfterMs: number) =>
      afterTransientPollFailure({
        attempt: 1,
        retry,
        giveUp: inSeconds(giveUpInSeconds),
        maxDelayMs: 900_000,
        now,
        notSent: { retryAfterMs, graceMs },
      });
    // Before the give-up instant: as any transient failure.
    expect(after(10, 25_000)).toEqual({ kind: "retry" });
    // At or past it: asked again when the breaker lets calls through, not given up.
    expect(after(0, 25_000)).toEqual({ kind: "reschedule", delayMs: 25_000 });
    expect(after(-60, 25_000)).toEqual({ kind: "reschedule", delayMs: 16_000 });
    // After the grace: given up (the authority failed the breaker's trials throughout).
    expect(after(-76, 1000)).toEqual({ kind: "give_up" });
    // A failure of the authority itself at the give-up instant ends the poll, as before.
    expect(afterTransientPollFailure({ attempt: 1, retry, giveUp: inSeconds(0), maxDelayMs: 900_000, now })).toEqual({ kind: "give_up" });
  });

  it("shortens a poll's timeout so it ends by the give-up instant, but not below the minimum", () => {
    expect(pollTimeoutMs(inSeconds(60), 8000, 1000, now)).toBe(8000);
    expect(pollTimeoutMs(inSeconds(3), 8000, 1000, now)).toBe(3000);
    expect(pollTimeoutMs(inSeconds(0.2), 8000, 1000, now)).toBe(1000);
  });
});
