import { describe, expect, it } from "vitest";
import { validatePeriod } from "./period.ts";

const today = "2025-06-15";

describe("validatePeriod", () => {
  it.each([
    ["2024-04-01", "2025-03-31"],
    ["2024-01-01", "2024-12-31"],
    ["2025-06-15", "2025-06-15"],
    ["2024-01-15", "2025-01-31"],
    // 18 months exactly
    ["2023-07-01", "2024-12-31"],
    ["2023-09-01", "2025-02-28"],
    ["2024-02-29", "2025-06-15"],
  ])("accepts %s to %s", (start, end) => {
    expect(validatePeriod(start, end, today)).toEqual([]);
  });

  it.each([
    ["2024-04-01", "2025-06-16", [{ path: "period_end", message: "period end 2025-06-16 is in the future (today is 2025-06-15)" }]],
    ["2024-05-01", "2024-04-30", [{ path: "period.start", message: "period start 2024-05-01 is after period end 2024-04-30" }]],
    [
      "2023-07-01",
      "2025-01-01",
      [
        {
          path: "period.start",
          message: "the period 2023-07-01 to 2025-01-01 is longer than 18 months, the longest accounting period allowed",
        },
      ],
    ],
    [
      "2023-08-31",
      "2025-03-01",
      [
        {
          path: "period.start",
          message: "the period 2023-08-31 to 2025-03-01 is longer than 18 months, the longest accounting period allowed",
        },
      ],
    ],
    ["2024-02-30", "2024-12-31", [{ path: "period.start", message: "must be a real date written YYYY-MM-DD" }]],
    ["2024-01-01", "31/12/2024", [{ path: "period_end", message: "must be a real date written YYYY-MM-DD" }]],
    [
      "x",
      "y",
      [
        { path: "period.start", message: "must be a real date written YYYY-MM-DD" },
        { path: "period_end", message: "must be a real date written YYYY-MM-DD" },
      ],
    ],
    [
      "2026-01-01",
      "2025-12-31",
      [
        { path: "period_end", message: "period end 2025-12-31 is in the future (today is 2025-06-15)" },
        { path: "period.start", message: "period start 2026-01-01 is after period end 2025-12-31" },
      ],
    ],
  ])("reports %s to %s", (start, end, problems) => {
    expect(validatePeriod(start, end, today)).toEqual(problems);
  });

  it("throws when today itself is not a date (a caller bug)", () => {
    expect(() => validatePeriod("2024-01-01", "2024-12-31", "today")).toThrow(RangeError);
  });
});
