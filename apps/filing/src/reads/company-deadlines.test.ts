import { calendarDateAt } from "@dormant/company-data";
import { AppError, CompanyDeadlines, FILING_RPC_QUEUE, type FilingRpcCaller } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";
import { rejectSeededPart, seedAccountsFiling, seedCt600Filing, type SeededFiling } from "../test-support/seed.ts";

// filing.deadlines through the real bus, served by the filing service in-process on its own
// Postgres database, Redis and RabbitMQ vhost, with the authority simulator as the registry's
// public data API. 00000001 (simulator table): accounts filed to 2025-03-31, so the current
// period is 2025-04-01..2026-03-31 (due 2026-12-31) and the next 2026-04-01..2027-03-31.
let h: FilingHarness;
let owner: FilingRpcCaller;
const mine = {} as Record<"ct600" | "accounts" | "split", SeededFiling>;

const deadlines = (caller: FilingRpcCaller, companyNumber = "00000001") =>
  h.peer.rpcCall(FILING_RPC_QUEUE, "filing.deadlines", { caller, company_number: companyNumber });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("it succeeded"),
    (error: unknown) => error as AppError,
  );

beforeAll(async () => {
  h = await startFilingHarness("deadlines");
  owner = h.caller({ account_id: "acc_deadlines", key_id: "key_deadlines" });
  const keys = { accountId: owner.account_id, keyId: owner.key_id };
  // An account has one live filing per type, company and period end (FILING_EXISTS): another key
  // of the account filed the period and was rejected, then this key, rejected too, then filed again.
  const otherKeys = await seedCt600Filing(h.service.db, 1, { accountId: owner.account_id, keyId: "key_other" });
  await rejectSeededPart(h.service.db, otherKeys, 1);
  mine.ct600 = await seedCt600Filing(h.service.db, 1, keys);
  await rejectSeededPart(h.service.db, mine.ct600, 1);
  // Parts end 2025-12-31 and 2026-03-31: its second return ends with the current CT600 period.
  mine.split = await seedCt600Filing(h.service.db, 2, keys);
  mine.accounts = await seedAccountsFiling(h.service.db, keys);
  // Not listed: another company, a period outside the listed ones, another key (above), another account.
  await seedCt600Filing(h.service.db, 1, { ...keys, companyNumber: "00000002", periodEnd: "2026-09-30" });
  await seedCt600Filing(h.service.db, 1, { ...keys, periodEnd: "2025-03-31" });
  await seedAccountsFiling(h.service.db, { accountId: "acc_other", keyId: "key_stranger" });
}, 60_000);
afterAll(async () => {
  await h?.teardown();
});

describe("filing.deadlines", () => {
  it("answers the registry's periods with the caller's own filings for them", async () => {
    const answer = await deadlines(owner);
    expect(CompanyDeadlines.parse(answer)).toEqual(answer);
    const today = calendarDateAt(new Date());
    const after = (date: string) => today > date;
    expect(answer).toEqual({
      company_number: "00000001",
      company_name: "LOVELACE ENGINES LIMITED",
      today,
      accounts_periods: [
        {
          kind: "current",
          period: { start: "2025-04-01", end: "2026-03-31" },
          due_on: "2026-12-31",
          overdue: after("2026-12-31"),
          filings: [{ filing_id: mine.accounts.id, status: "submitted" }],
        },
        {
          kind: "next",
          period: { start: "2026-04-01", end: "2027-03-31" },
          due_on: "2027-12-31",
          overdue: after("2027-12-31"),
          filings: [],
        },
      ],
      ct600_periods: [
        {
          period: { start: "2025-04-01", end: "2026-03-31" },
          accounts_period_end: "2026-03-31",
          filing_deadline: "2027-03-31",
          overdue: after("2027-03-31"),
          filings: [
            { filing_id: mine.split.id, status: "submitted" },
            { filing_id: mine.ct600.id, status: "rejected" },
          ],
        },
        {
          period: { start: "2026-04-01", end: "2027-03-31" },
          accounts_period_end: "2027-03-31",
          filing_deadline: "2028-03-31",
          overdue: after("2028-03-31"),
          filings: [],
        },
      ],
    });
  });

  it("never shows another key's or account's filings", async () => {
    const otherKey = await deadlines({ ...owner, key_id: "key_other" });
    expect(otherKey.ct600_periods[0]?.filings).toHaveLength(1);
    expect(otherKey.accounts_periods[0]?.filings).toEqual([]);
    const stranger = await deadlines(h.caller({ account_id: "acc_nobody", key_id: "key_nobody" }));
    expect([...stranger.accounts_periods, ...stranger.ct600_periods].flatMap((p) => p.filings)).toEqual([]);
  });

  it("lists no filings to a test caller", async () => {
    const test = await deadlines({ ...owner, mode: "test" });
    expect([...test.accounts_periods, ...test.ct600_periods].flatMap((p) => p.filings)).toEqual([]);
  });

  it("refuses a company the registry does not know as the submits do", async () => {
    const error = await failure(deadlines(owner, "99999999"));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "company_number", message: "company 99999999 is not known to the registry" }],
    });
  });

  it("is REGISTRY_UNAVAILABLE with Retry-After when the registry does not answer", async () => {
    const faults = `${h.sim.urls.control}/faults`;
    await fetch(faults, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ target: "registry-data", down: true }),
    });
    try {
      // A company not asked before, so the cache cannot answer.
      expect(await failure(deadlines(owner, "00000004"))).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryAfterSeconds: 30 });
    } finally {
      await fetch(faults, { method: "DELETE" });
    }
  });
});
