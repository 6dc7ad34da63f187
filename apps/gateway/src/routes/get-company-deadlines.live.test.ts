import { calendarDateAt } from "@dormant/company-data";
import { CompanyDeadlines } from "@dormant/contracts";
import { startFilingHarness, type FilingHarness } from "@dormant/filing/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsBody, ct600Body, get, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// Live deadlines end to end: the gateway as production wires it, the real filing service (with
// billing and both submitters, for the filings), the authority simulator as the registry's public
// data API, on real Postgres, Redis and RabbitMQ. 00000001 (simulator): accounts filed to
// 2025-03-31, so the current period is 2025-04-01..2026-03-31, due 2026-12-31.
let h: FilingHarness;
let gw: TestGateway;
let otherLiveKey: string;
const ids = {} as Record<"accounts" | "ct600", string>;

beforeAll(async () => {
  h = await startFilingHarness("gw_deadlines", { billing: true, taxSubmitter: true, registrySubmitter: true });
  gw = await createTestGateway({ label: "company_deadlines_live", amqpUrl: h.vhost.url });
  await h.openAccount(100_000, gw.account.accountId);
  const other = await gw.createAccount();
  otherLiveKey = other.liveKey;
  await h.openAccount(100_000, other.accountId);
  const accounts = await submit(
    gw.app,
    "accounts",
    gw.account.liveKey,
    accountsBody({ period_end: "2026-03-31", approval: { date: "2026-05-01" } }),
  );
  const ct600 = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body({ period_end: "2026-03-31" }));
  expect([accounts.status, ct600.status]).toEqual([202, 202]);
  ids.accounts = accounts.body.data.filing_id;
  ids.ct600 = ct600.body.data.filing_id;
}, 90_000);
afterAll(async () => {
  await gw?.close();
  await h?.teardown();
});

describe("GET /companies/{company_number}/deadlines (live)", () => {
  it("lists the registry's periods with the key's own filings for them", async () => {
    const response = await get(gw.app, "/companies/00000001/deadlines", gw.account.liveKey);
    expect(response.status).toBe(200);
    const data = CompanyDeadlines.parse(response.body.data);
    expect(data).toMatchObject({ company_number: "00000001", company_name: "LOVELACE ENGINES LIMITED", today: calendarDateAt(new Date()) });
    expect(data.sandbox).toBeUndefined();
    expect(data.accounts_periods.map((p) => [p.kind, p.period.start, p.period.end, p.due_on])).toEqual([
      ["current", "2025-04-01", "2026-03-31", "2026-12-31"],
      ["next", "2026-04-01", "2027-03-31", "2027-12-31"],
    ]);
    expect(data.accounts_periods[0]?.filings).toEqual([{ filing_id: ids.accounts, status: expect.any(String) }]);
    expect(data.ct600_periods.map((p) => [p.period.start, p.period.end, p.filing_deadline])).toEqual([
      ["2025-04-01", "2026-03-31", "2027-03-31"],
      ["2026-04-01", "2027-03-31", "2028-03-31"],
    ]);
    expect(data.ct600_periods[0]?.filings).toEqual([{ filing_id: ids.ct600, status: expect.any(String) }]);
    expect(data.accounts_periods[1]?.filings).toEqual([]);
  });

  it("never shows another account's filings", async () => {
    const response = await get(gw.app, "/companies/00000001/deadlines", otherLiveKey);
    expect(response.status).toBe(200);
    const data = CompanyDeadlines.parse(response.body.data);
    expect([...data.accounts_periods, ...data.ct600_periods].flatMap((p) => p.filings)).toEqual([]);
    expect(JSON.stringify(response.body)).not.toContain(ids.accounts);
  });

  it("answers a company the registry does not know as the submits do: 400 VALIDATION_ERROR on company_number", async () => {
    const response = await get(gw.app, "/companies/99999999/deadlines", gw.account.liveKey);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "company_number", message: "company 99999999 is not known to the registry" }],
    });
  });
});
