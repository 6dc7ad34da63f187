import { describe, expect, it } from "vitest";
import { londonDateTime } from "./london-time.ts";

describe("londonDateTime", () => {
  it("writes London winter time (GMT) without a zone", () => {
    expect(londonDateTime(Date.UTC(2026, 0, 15, 9, 5, 7, 42))).toBe("2026-01-15T09:05:07.042");
  });

  it("writes London summer time (BST, UTC+1)", () => {
    expect(londonDateTime(Date.UTC(2026, 8, 28, 23, 33, 6, 257))).toBe("2026-09-29T00:33:06.257");
  });

  it("gives what formatting every instant with Intl gives, across minutes and the clock changes", () => {
    const formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/London",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    const reference = (epochMs: number) => {
      const parts = Object.fromEntries(formatter.formatToParts(new Date(epochMs)).map((part) => [part.type, part.value]));
      return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${String(epochMs % 1000).padStart(3, "0")}`;
    };
    // Around the changes of 29 March and 25 October 2026 (01:00 UTC), and at random.
    const instants = [
      Date.UTC(2026, 2, 29, 0, 59, 59, 999),
      Date.UTC(2026, 2, 29, 1, 0, 0, 0),
      Date.UTC(2026, 9, 25, 0, 59, 59, 999),
      Date.UTC(2026, 9, 25, 1, 0, 0, 1),
    ];
    for (let i = 0; i < 2_000; i += 1) instants.push(Date.UTC(2024, 0, 1) + Math.floor(Math.random() * 4 * 365 * 86_400_000));
    for (let at = Date.UTC(2026, 9, 25, 0, 58); at < Date.UTC(2026, 9, 25, 1, 3); at += 7_919) instants.push(at);
    for (const epochMs of instants) expect(londonDateTime(epochMs)).toBe(reference(epochMs));
  });
});
