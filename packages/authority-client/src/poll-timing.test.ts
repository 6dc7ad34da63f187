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

  it("after a transient failure: retries through the bus, reschedules on the last attempt, gives up after the deadline", () => {
    expect(afterTransientPollFailure({ attempt: 1, maxAttempts: 8, giveUp: inSeconds(10), now })).toBe("retry");
    expect(afterTransientPollFailure({ attempt: 8, maxAttempts: 8, giveUp: inSeconds(10), now })).toBe("reschedule");
    expect(afterTransientPollFailure({ attempt: 1, maxAttempts: 8, giveUp: inSeconds(0), now })).toBe("give_up");
  });

  it("shortens a poll's timeout so it ends by the give-up instant, but not below the minimum", () => {
    expect(pollTimeoutMs(inSeconds(60), 8000, 1000, now)).toBe(8000);
    expect(pollTimeoutMs(inSeconds(3), 8000, 1000, now)).toBe(3000);
    expect(pollTimeoutMs(inSeconds(0.2), 8000, 1000, now)).toBe(1000);
  });
});
