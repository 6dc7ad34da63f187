import { describe, expect, it } from "vitest";
import { londonTimeToIso } from "./london-time.ts";

describe("londonTimeToIso", () => {
  it("reads London winter time (GMT)", () => {
    expect(londonTimeToIso("2026-01-15T09:05:07.042")).toBe("2026-01-15T09:05:07.042Z");
  });

  it("reads London summer time (BST, UTC+1)", () => {
    expect(londonTimeToIso("2026-09-29T00:33:06.257")).toBe("2026-09-28T23:33:06.257Z");
  });

  it("takes zoned times as they are and refuses what it cannot read", () => {
    expect(londonTimeToIso("2026-09-29T00:33:06Z")).toBe("2026-09-29T00:33:06.000Z");
    expect(londonTimeToIso("yesterday")).toBeUndefined();
    expect(londonTimeToIso(undefined)).toBeUndefined();
  });
});
