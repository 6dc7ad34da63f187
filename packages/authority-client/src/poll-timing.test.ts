import { describe, expect, it } from "vitest";
import { afterTransientPollFailure, giveUpAt, nextPoll, pollTimeoutMs } from "./poll-timing.ts";

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

  it("after a transient failure: the bus retries while it can before the give-up time, else a fresh poll is scheduled", () => {
    const retry = { maxAttempts: 8, backoffMs: [1000, 2000, 5000, 10_000, 30_000] };
    const after = (attempt: number, giveUpInSeconds: number) => afterTransientPollFailure({ attempt, retry, giveUp: inSeconds(giveUpInSeconds), maxDelayMs: 900_000, now });
    expect(after(1, 10)).toEqual({ kind: "retry" });
    expect(after(3, 10)).toEqual({ kind: "retry" });
    // The 10 s backoff of attempt 4 would come after the give-up instant: poll at it instead.
    expect(after(4, 6)).toEqual({ kind: "reschedule", delayMs: 6000 });
    // Attempts used up: a fresh poll after the last backoff, so nothing is parked.
    expect(after(8, 600)).toEqual({ kind: "reschedule", delayMs: 30_000 });
    expect(after(1, 0)).toEqual({ kind: "give_up" });
  });

  it("shortens a poll's timeout so it ends by the give-up instant, but not below the minimum", () => {
    expect(pollTimeoutMs(inSeconds(60), 8000, 1000, now)).toBe(8000);
    expect(pollTimeoutMs(inSeconds(3), 8000, 1000, now)).toBe(3000);
    expect(pollTimeoutMs(inSeconds(0.2), 8000, 1000, now)).toBe(1000);
  });
});
