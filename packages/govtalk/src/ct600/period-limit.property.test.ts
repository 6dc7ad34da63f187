// The builder's 12-month limit (rule 9101) must be the platform's: @dormant/company-data defines
// the months of a period and splits long periods into CT600 returns (splitCt600Period); every
// part it produces must be accepted here, and nothing longer.
import {
  addDays,
  formatIsoDate,
  fromDayNumber,
  isLongerThanTwelveMonths,
  periodEndAfterMonths,
  splitCt600Period,
  toDayNumber,
} from "@dormant/company-data";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GovTalkInputError } from "../errors.ts";
import { nilReturnInput } from "../test-support/ct600-input.ts";
import { parseCt600NilReturnInput } from "./nil-return-input.ts";

function accepts(periodStart: string, periodEnd: string): boolean {
  try {
    parseCt600NilReturnInput(nilReturnInput({ periodStart, periodEnd }));
    return true;
  } catch (error) {
    if (error instanceof GovTalkInputError) return false;
    throw error;
  }
}

function everyDayOf(year: number): string[] {
  const first = toDayNumber(formatIsoDate({ year, month: 1, day: 1 }));
  const last = toDayNumber(formatIsoDate({ year, month: 12, day: 31 }));
  return Array.from({ length: last - first + 1 }, (_, i) => fromDayNumber(first + i));
}

describe("12-month limit (rule 9101): builder and company-data agree", () => {
  it.each([2023, 2024])("for every start day of %i: same last day, that day accepted, the next refused", (year) => {
    const starts = everyDayOf(year);
    expect(starts).toHaveLength(year === 2024 ? 366 : 365);
    for (const start of starts) {
      const lastDay = periodEndAfterMonths(start, 12);
      expect(isLongerThanTwelveMonths(start, lastDay), start).toBe(false);
      expect(isLongerThanTwelveMonths(start, addDays(lastDay, 1)), start).toBe(true);
      expect(accepts(start, lastDay), start).toBe(true);
      expect(accepts(start, addDays(lastDay, 1)), start).toBe(false);
    }
  });

  it("29 February: 2024-02-29 to 2025-02-28 is accepted, to 2025-03-01 is not", () => {
    expect(splitCt600Period("2024-02-29", "2025-02-28")).toEqual([{ start: "2024-02-29", end: "2025-02-28" }]);
    expect(accepts("2024-02-29", "2025-02-28")).toBe(true);
    expect(accepts("2024-02-29", "2025-03-01")).toBe(false);
  });

  it("accepts every part splitCt600Period makes of a period of up to 24 months", () => {
    const earliest = toDayNumber("2015-04-01");
    const latest = toDayNumber("2099-12-31");
    fc.assert(
      fc.property(fc.integer({ min: earliest, max: latest }), fc.integer({ min: 0, max: 1_000 }), (startDay, extraDays) => {
        const start = fromDayNumber(startDay);
        const end = fromDayNumber(Math.min(startDay + extraDays, toDayNumber(periodEndAfterMonths(start, 24))));
        for (const part of splitCt600Period(start, end)) {
          expect(accepts(part.start, part.end), `${part.start}..${part.end} of ${start}..${end}`).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
