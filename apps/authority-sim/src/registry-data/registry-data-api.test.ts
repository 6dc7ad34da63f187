import {
  CompanyNotFoundError,
  companyProfileSchema,
  createRegistryDataClient,
  deriveFirstActiveDirector,
  deriveIsFirstYear,
  derivePeriodStart,
  filingHistorySchema,
  officerListSchema,
  RegistryUnavailableError,
  type RegistryDataClient,
} from "@dormant/company-data";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetSimContext } from "../context.ts";
import type { SimServer } from "../server.ts";
import { control, startTestSim } from "../testing/test-sim.ts";

const API_KEY = "sim-registry-data-key";
let sim: SimServer;
let client: RegistryDataClient;

beforeAll(async () => {
  sim = await startTestSim();
  client = createRegistryDataClient({ baseUrl: sim.urls.registryData, apiKey: API_KEY, timeoutMs: 2000 });
});
afterAll(() => sim.close());
beforeEach(() => resetSimContext(sim.context));

const TABLE = ["00000001", "00000002", "00000003", "00000004", "00000005", "00000006", "SC000001", "SC000002", "NI000001", "NI000002"];

function get(path: string, apiKey: string | null = API_KEY): Promise<Response> {
  const headers: Record<string, string> = apiKey === null ? {} : { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` };
  return fetch(`${sim.urls.registryData}${path}`, { headers });
}

describe("registry public data API", () => {
  it("asks for the API key as the basic-auth user name: missing or wrong gives 401", async () => {
    expect((await get("/company/00000001", null)).status).toBe(401);
    const wrong = await get("/company/00000001", "not-the-key");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "Invalid Authorization", type: "ch:service" });
    expect((await get("/company/00000001")).status).toBe(200);
  });

  it.each(TABLE)("%s: profile, officers and filing history in the registry's shapes", async (number) => {
    const profile = companyProfileSchema.parse(await (await get(`/company/${number}`)).json());
    const officers = officerListSchema.parse(await (await get(`/company/${number}/officers`)).json());
    const history = filingHistorySchema.parse(await (await get(`/company/${number}/filing-history?category=accounts`)).json());
    expect(profile.company_number).toBe(number);
    expect(profile.type).toBe("ltd");
    expect(profile.jurisdiction).toBe(
      number.startsWith("SC") ? "scotland" : number.startsWith("NI") ? "northern-ireland" : "england-wales",
    );
    expect(profile.company_status).toBe(number === "SC000002" ? "dissolved" : "active");
    for (const officer of officers.items) expect(officer.name).toMatch(/^[A-Z' -]+, [A-Z][a-z]+( [A-Z][a-z]+)*$|^[A-Z ]+LIMITED$/);
    expect(deriveFirstActiveDirector(officers)).not.toBeNull();
    for (const item of history.items) expect(item).toMatchObject({ category: "accounts", type: "AA" });
    const lastMadeUpTo = profile.accounts?.last_accounts?.made_up_to;
    expect(history.items[0]?.description_values?.made_up_date).toBe(lastMadeUpTo);
  });

  it("00000001 (through the platform's own client): a resigned director, a secretary, prior accounts, derivation works", async () => {
    const profile = await client.getCompany("00000001");
    const officers = await client.getOfficers("00000001");
    const history = await client.getFilingHistory("00000001", { category: "accounts" });
    expect(profile).toMatchObject({
      company_name: "LOVELACE ENGINES LIMITED",
      date_of_creation: "2022-04-14",
      accounts: {
        accounting_reference_date: { day: "31", month: "03" },
        last_accounts: { made_up_to: "2025-03-31", period_start_on: "2024-04-01" },
        next_accounts: { period_start_on: "2025-04-01", period_end_on: "2026-03-31", due_on: "2026-12-31" },
      },
    });
    expect(officers.items.some((o) => o.officer_role === "director" && o.resigned_on !== undefined)).toBe(true);
    expect(officers.items.some((o) => o.officer_role.endsWith("secretary"))).toBe(true);
    expect(deriveFirstActiveDirector(officers)?.name).toBe("Augusta Ada Lovelace");
    expect(derivePeriodStart(profile, { periodEnd: "2026-03-31", filingHistory: history })).toBe("2025-04-01");
    expect(deriveIsFirstYear(profile, { periodStart: "2025-04-01", filingHistory: history })).toBe(false);
    expect(history.items[0]?.accounts_figures).toEqual({ share_capital: 100, cash: 100, creditors: 0, profit_loss_account: 0 });
  });

  it("00000005 and NI000002 are in their first year: no accounts filed, the period starts at incorporation", async () => {
    for (const number of ["00000005", "NI000002"]) {
      const profile = await client.getCompany(number);
      const history = await client.getFilingHistory(number, { category: "accounts" });
      expect(history.items).toEqual([]);
      expect(profile.accounts?.last_accounts?.made_up_to).toBeUndefined();
      expect(profile.accounts?.next_accounts?.period_start_on).toBe(profile.date_of_creation);
      expect(deriveIsFirstYear(profile, { filingHistory: history })).toBe(true);
    }
  });

  it("filters the filing history by category; without a filter the incorporation is listed too", async () => {
    const all = filingHistorySchema.parse(await (await get("/company/00000002/filing-history")).json());
    expect(all.items.map((item) => item.type)).toEqual(["AA", "AA", "AA", "NEWINC"]);
    const page = filingHistorySchema.parse(await (await get("/company/00000002/filing-history?items_per_page=2&start_index=1")).json());
    expect(page).toMatchObject({ total_count: 4, items_per_page: 2, start_index: 1 });
    expect(page.items).toHaveLength(2);
  });

  it("serves a deterministic synthetic company for any other well-formed number", async () => {
    const first = await client.getCompany("12345678");
    const again = await client.getCompany("12345678");
    expect(again).toEqual(first);
    expect(await client.getOfficers("12345678")).toEqual(await client.getOfficers("12345678"));
    expect(first.company_name).toMatch(/^[A-Z]+ [A-Z]+ 12345678 LIMITED$/);
    expect((await client.getCompany("SC123456")).jurisdiction).toBe("scotland");
    expect((await client.getCompany("NI123456")).jurisdiction).toBe("northern-ireland");
    expect((await client.getCompany("12345679")).company_name).not.toBe(first.company_name);
  });

  it("synthetic companies are consistent: some in their first year, the others with an ended period to file", async () => {
    let firstYear = 0;
    for (let i = 0; i < 40; i++) {
      const number = `7${String(i).padStart(7, "0")}`;
      const profile = await client.getCompany(number);
      const officers = await client.getOfficers(number);
      const history = await client.getFilingHistory(number, { category: "accounts" });
      const next = profile.accounts?.next_accounts;
      expect(next?.period_end_on && next.period_end_on < "2026-10-01").toBe(true);
      expect(deriveFirstActiveDirector(officers)).not.toBeNull();
      if (history.items.length === 0) {
        firstYear++;
        expect(next?.period_start_on).toBe(profile.date_of_creation);
      } else {
        expect(derivePeriodStart(profile, { periodEnd: next?.period_end_on, filingHistory: history })).toBe(next?.period_start_on);
      }
    }
    expect(firstYear).toBeGreaterThan(2);
    expect(firstYear).toBeLessThan(38);
  });

  it("404 for a malformed number and for the documented unknown company 99999999", async () => {
    for (const number of ["99999999", "1234567", "sc000001", "ABC%20DEFG"]) {
      const response = await get(`/company/${number}`);
      expect(response.status).toBe(404);
    }
    await expect(client.getCompany("99999999")).rejects.toBeInstanceOf(CompanyNotFoundError);
    await expect(client.getOfficers("99999999")).rejects.toBeInstanceOf(CompanyNotFoundError);
  });

  it("a company overridden to the not-found scenario is unknown too", async () => {
    await control(sim, "PUT", "/outcomes/12345678", { scenario: "company-not-found" });
    await expect(client.getCompany("12345678")).rejects.toBeInstanceOf(CompanyNotFoundError);
  });

  it("injected faults: down gives 503 (retryable for the client)", async () => {
    await control(sim, "POST", "/faults", { target: "registry-data", down: true });
    const error = await client.getCompany("00000001").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect(error).toMatchObject({ reason: "server-error", status: 503 });
    await control(sim, "DELETE", "/faults?target=registry-data");
    expect((await client.getCompany("00000001")).company_number).toBe("00000001");
  });

  it("logs each lookup in the received log", async () => {
    await client.getCompany("00000002");
    await client.getCompany("99999999").catch(() => undefined);
    const items = sim.context.received.list({ target: "registry-data" });
    expect(items.map((item) => `${item.kind}:${item.company}:${item.answer}`)).toEqual(["profile:00000002:200", "profile:99999999:404"]);
  });
});

describe("registry public data API rate limit (optional)", () => {
  it("answers 429 with the registry's headers after N requests in 5 minutes", async () => {
    const limited = await startTestSim({ registryData: { apiKey: API_KEY, rateLimitPer5Min: 2, asOf: "2026-10-01" } });
    try {
      const headers = { authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}` };
      const statuses = [];
      let last: Response | undefined;
      for (let i = 0; i < 3; i++) {
        last = await fetch(`${limited.urls.registryData}/company/00000001`, { headers });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(last?.headers.get("x-ratelimit-limit")).toBe("2");
      expect(last?.headers.get("x-ratelimit-remain")).toBe("0");
      expect(Number(last?.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    } finally {
      await limited.close();
    }
  });
});
