import { describe, expect, it } from "vitest";
import { nextReferenceDate } from "./next-reference-date.ts";

describe("nextReferenceDate", () => {
  it.each([
    [{ day: "31", month: "03" }, "2025-03-31", "2026-03-31"],
    [{ day: "31", month: "03" }, "2025-03-30", "2025-03-31"],
    [{ day: 31, month: 3 }, "2024-12-31", "2025-03-31"],
    [{ day: "29", month: "02" }, "2024-02-29", "2025-02-28"],
    [{ day: "29", month: "02" }, "2027-03-01", "2028-02-29"],
    [{ day: "28", month: "02" }, "2023-02-28", "2024-02-28"],
    [{ day: "31", month: "04" }, "2024-01-01", "2024-04-30"],
    [{ day: "30", month: "09" }, "2024-09-30", "2025-09-30"],
  ])("%j after %s is %s", (reference, after, expected) => {
    expect(nextReferenceDate(reference, after)).toBe(expected);
  });
});
