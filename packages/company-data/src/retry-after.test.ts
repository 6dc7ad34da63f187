import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retry-after.ts";

const now = Date.parse("2025-01-10T12:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    [null, undefined],
    [undefined, undefined],
    ["", undefined],
    ["120", 120],
    ["0", 0],
    [" 30 ", 30],
    ["-5", undefined],
    ["1.5", undefined],
    ["soon", undefined],
    ["99999999999999999999", undefined],
    ["Fri, 10 Jan 2025 12:01:30 GMT", 90],
    ["Fri, 10 Jan 2025 12:00:00 GMT", 0],
    // A date in the past means "now", never a negative wait.
    ["Fri, 10 Jan 2025 11:00:00 GMT", 0],
    // Part of a second rounds up so a caller never retries early.
    ["Fri, 10 Jan 2025 12:00:01 GMT", 1],
    ["Friday, 10-Jan-25 12:01:30 GMT", undefined],
    ["Fri, 32 Jan 2025 12:00:00 GMT", undefined],
  ])("parseRetryAfter(%j) is %j", (header, seconds) => {
    expect(parseRetryAfter(header, now)).toBe(seconds);
  });
});
