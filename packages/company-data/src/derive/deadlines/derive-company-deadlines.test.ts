import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLongerThanMonths, periodEndAfterMonths } from "../../accounting-period.ts";
import { addDays, compareDates, fromDayNumber, toDayNumber } from "../../calendar-date.ts";
import { companyProfileSchema, type CompanyProfile } from "../../schemas.ts";
import { companyProfile } from "../../test-support/registry-builders.ts";
import { deriveCompanyDeadlines } from "./derive-company-deadlines.ts";

const fixture = companyProfileSchema.parse(
  JSON.parse(readFileSync(new URL("../../fixtures/company-profile.json", import.meta.url), "utf8")),
);

/** A profile whose registry next accounts are start..end, due `due`, with a reference date. */
function withNextAccounts(
  start: string,
  end: string,
  due: string,
  reference?: { day: string; month: string },
  change: Partial<CompanyProfile> = {},
) {
  return companyProfile({
    ...change,
    accounts: {
      ...(reference ? { accounting_reference_date: reference } : {}),
      next_accounts: { period_start_on: start, period_end_on: end, due_on: due, overdue: false },
    },
  });
}

const periods = (list: readonly { period: { start: string; end: string } }[]) => list.map(({ period }) => [period.start, period.end]);

describe("deriveCompanyDeadlines (registry fixture)", () => {
  it("lists the registry's next accounts, the period after, and their CT600 returns", () => {
    expect(deriveCompanyDeadlines(fixture, "2025-06-01")).toEqual({
      accountsPeriods: [
        { kind: "current", period: { start: "2024-04-01", end: "2025-03-31" }, dueOn: "2025-12-31", overdue: false },
        { kind: "next", period: { start: "2025-04-01", end: "2026-03-31" }, dueOn: "2026-12-31", overdue: false },
      ],
      ct600Periods: [
        {
          period: { start: "2024-04-01", end: "2025-03-31" },
          accountsPeriodEnd: "2025-03-31",
          filingDeadline: "2026-03-31",
          overdue: false,
        },
        {
          period: { start: "2025-04-01", end: "2026-03-31" },
          accountsPeriodEnd: "2026-03-31",
          filingDeadline: "2027-03-31",
          overdue: false,
        },
      ],
    });
  });

  it("is overdue the day after a deadline, not on it", () => {
    const onDue = deriveCompanyDeadlines(fixture, "2025-12-31");
    expect(onDue.accountsPeriods[0]?.overdue).toBe(false);
    const after = deriveCompanyDeadlines(fixture, "2026-01-01");
    expect(after.accountsPeriods.map((p) => p.overdue)).toEqual([true, false]);
    expect(deriveCompanyDeadlines(fixture, "2026-04-01").ct600Periods.map((p) => p.overdue)).toEqual([true, false]);
  });

  it("keeps the registry's own overdue flag", () => {
    const flagged = companyProfile({
      accounts: { next_accounts: { period_start_on: "2024-04-01", period_end_on: "2025-03-31", due_on: "2025-12-31", overdue: true } },
    });
    expect(deriveCompanyDeadlines(flagged, "2025-06-01").accountsPeriods[0]?.overdue).toBe(true);
  });

  it("throws for an invalid today", () => {
    expect(() => deriveCompanyDeadlines(fixture, "2025-02-29")).toThrow(RangeError);
  });
});

describe("deriveCompanyDeadlines (dates)", () => {
  it("splits a first period over 12 months into 12 months and the rest, each due 12 months after it ends", () => {
    const first = withNextAccounts("2022-04-14", "2023-04-30", "2024-01-14", { day: "30", month: "04" });
    const { accountsPeriods, ct600Periods } = deriveCompanyDeadlines(first, "2023-05-01");
    expect(periods(accountsPeriods)).toEqual([
      ["2022-04-14", "2023-04-30"],
      ["2023-05-01", "2024-04-30"],
    ]);
    expect(accountsPeriods.map((p) => p.dueOn)).toEqual(["2024-01-14", "2025-01-31"]);
    expect(ct600Periods.map((p) => [p.period.start, p.period.end, p.filingDeadline, p.accountsPeriodEnd])).toEqual([
      ["2022-04-14", "2023-04-13", "2024-04-13", "2023-04-30"],
      ["2023-04-14", "2023-04-30", "2024-04-30", "2023-04-30"],
      ["2023-05-01", "2024-04-30", "2025-04-30", "2024-04-30"],
    ]);
  });

  it("handles leap days: a period ending 29 February is followed by one ending 28 February, due at month ends", () => {
    const leap = withNextAccounts("2023-03-01", "2024-02-29", "2024-11-30", { day: "29", month: "02" });
    const { accountsPeriods, ct600Periods } = deriveCompanyDeadlines(leap, "2024-03-10");
    expect(accountsPeriods[1]).toEqual({
      kind: "next",
      period: { start: "2024-03-01", end: "2025-02-28" },
      dueOn: "2025-11-30",
      overdue: false,
    });
    expect(ct600Periods.map((p) => p.filingDeadline)).toEqual(["2025-02-28", "2026-02-28"]);
  });

  it("reaches 29 February in a leap year from a 28 February reference date period", () => {
    const common = withNextAccounts("2022-03-01", "2023-02-28", "2023-11-30");
    const next = deriveCompanyDeadlines(common, "2023-03-01").accountsPeriods[1];
    expect(next).toEqual({ kind: "next", period: { start: "2023-03-01", end: "2024-02-29" }, dueOn: "2024-11-30", overdue: false });
  });

  it("moves a month-end period's due date to the month end 9 months on (6 for a plc)", () => {
    const mayEnd = withNextAccounts("2023-06-01", "2024-05-31", "2025-02-28", { day: "31", month: "05" });
    expect(deriveCompanyDeadlines(mayEnd, "2024-06-01").accountsPeriods[1]?.dueOn).toBe("2026-02-28");
    const juneEnd = withNextAccounts("2022-07-01", "2023-06-30", "2024-03-31", { day: "30", month: "06" }, { type: "plc" });
    expect(deriveCompanyDeadlines(juneEnd, "2023-07-01").accountsPeriods[1]?.dueOn).toBe("2024-12-31");
  });

  it("derives what the registry leaves out: the start, the due date", () => {
    const sparse = companyProfile({
      accounts: {
        last_accounts: { made_up_to: "2024-03-31", period_end_on: "2024-03-31" },
        next_accounts: { period_end_on: "2025-03-31" },
      },
    });
    expect(deriveCompanyDeadlines(sparse, "2025-01-01").accountsPeriods[0]).toEqual({
      kind: "current",
      period: { start: "2024-04-01", end: "2025-03-31" },
      dueOn: "2025-12-31",
      overdue: false,
    });
  });

  it("lists nothing when the registry names no next accounts (a dissolved company)", () => {
    expect(deriveCompanyDeadlines(companyProfile({ company_status: "dissolved" }), "2025-01-01")).toEqual({
      accountsPeriods: [],
      ct600Periods: [],
    });
  });
});

const day = (from: string, to: string) => fc.integer({ min: toDayNumber(from), max: toDayNumber(to) }).map(fromDayNumber);

describe("deriveCompanyDeadlines (properties)", () => {
  it("gives contiguous accounts periods, the next at most 12 months, and CT600 returns that cover each exactly", () => {
    fc.assert(
      fc.property(
        day("1990-01-01", "2090-12-31"),
        fc.integer({ min: 1, max: 18 }),
        day("1990-01-01", "2095-12-31"),
        (start, months, today) => {
          const end = periodEndAfterMonths(start, months);
          const { accountsPeriods, ct600Periods } = deriveCompanyDeadlines(withNextAccounts(start, end, addDays(end, 270)), today);
          const [current, next] = accountsPeriods;
          if (!current || !next) return false;
          expect(next.period.start).toBe(addDays(current.period.end, 1));
          expect(isLongerThanMonths(next.period.start, next.period.end, 12)).toBe(false);
          for (const p of accountsPeriods) {
            expect(compareDates(p.dueOn, p.period.end)).toBeGreaterThan(0);
            expect(p.overdue).toBe(compareDates(today, p.dueOn) > 0);
            const returns = ct600Periods.filter((r) => r.accountsPeriodEnd === p.period.end);
            expect(returns[0]?.period.start).toBe(p.period.start);
            expect(returns.at(-1)?.period.end).toBe(p.period.end);
            for (const [i, r] of returns.entries()) {
              expect(isLongerThanMonths(r.period.start, r.period.end, 12)).toBe(false);
              if (i > 0) expect(r.period.start).toBe(addDays(returns[i - 1]?.period.end ?? "", 1));
              expect(r.overdue).toBe(compareDates(today, r.filingDeadline) > 0);
            }
          }
          return true;
        },
      ),
    );
  });
});
