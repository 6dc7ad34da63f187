import { CompanyDeadlines } from "@dormant/contracts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxReferenceMonth } from "@dormant/company-data";
import { sandboxDeadlines } from "../sandbox/sandbox-deadlines.ts";
import { get, RATE_LIMIT_HEADERS } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /companies/{company_number}/deadlines (sandbox)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "company_deadlines_happy" });
  });
  afterAll(() => gw?.close());

  it("answers a test key from the company number and today alone, with no filings", async () => {
    const first = await get(gw.app, "/companies/00000001/deadlines", gw.account.testKey);
    expect(first.status).toBe(200);
    for (const header of RATE_LIMIT_HEADERS) expect(first.headers[header]).toMatch(/^\d+$/);
    const data = CompanyDeadlines.parse(first.body.data);
    expect(first.body.success).toBe(true);
    expect(data).toEqual(sandboxDeadlines("00000001", data.today));
    expect(data).toMatchObject({ company_number: "00000001", sandbox: true });
    expect(data.accounts_periods.map((p) => p.kind)).toEqual(["current", "next"]);
    expect([...data.accounts_periods, ...data.ct600_periods].flatMap((p) => p.filings)).toEqual([]);
    const again = await get(gw.app, "/companies/00000001/deadlines", gw.account.testKey);
    expect(again.body.data).toEqual(first.body.data);
  });
});

describe("sandboxDeadlines", () => {
  it("is a worked example: 00000001 on 2026-11-27", () => {
    const month = sandboxReferenceMonth("00000001");
    const answer = sandboxDeadlines("00000001", "2026-11-27");
    const current = answer.accounts_periods[0];
    expect(Number(current?.period.end.slice(5, 7))).toBe(month);
    expect(current?.overdue).toBe(false);
    expect(answer).toEqual(sandboxDeadlines("00000001", "2026-11-27"));
  });

  it("differs between companies by its reference month, which spreads over the year", () => {
    const months = new Set(Array.from({ length: 60 }, (_, i) => sandboxReferenceMonth(String(i).padStart(8, "0"))));
    expect(months.size).toBe(12);
  });

  it("always has a current period ending on a month end, not overdue, not yet due for over 9 months, then the next 12 months", () => {
    const day = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 11, 31) }).map((ms) => new Date(ms).toISOString().slice(0, 10));
    const number = fc.stringMatching(/^[A-Z0-9]{8}$/);
    fc.assert(
      fc.property(number, day, (companyNumber, today) => {
        const answer = sandboxDeadlines(companyNumber, today);
        expect(CompanyDeadlines.safeParse(answer).success).toBe(true);
        const [current, next] = answer.accounts_periods;
        expect(current?.overdue).toBe(false);
        expect(current && current.due_on >= today).toBe(true);
        expect((next?.period.start ?? "") > (current?.period.end ?? "")).toBe(true);
        expect(Number(current?.period.end.slice(5, 7))).toBe(sandboxReferenceMonth(companyNumber));
        expect(answer.ct600_periods.length).toBe(2);
        expect(answer).toEqual(sandboxDeadlines(companyNumber, today));
      }),
    );
  });
});
