import { describe, expect, it } from "vitest";
import { londonDateTime } from "./london-time.ts";

describe("londonDateTime", () => {
  it("writes London winter time (GMT) without a zone", () => {
    expect(londonDateTime(Date.UTC(2026, 0, 15, 9, 5, 7, 42))).toBe("2026-01-15T09:05:07.042");
  });

  it("writes London summer time (BST, UTC+1)", () => {
    expect(londonDateTime(Date.UTC(2026, 8, 28, 23, 33, 6, 257))).toBe("2026-09-29T00:33:06.257");
  });
});
