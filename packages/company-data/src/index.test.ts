import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryDataClient, deriveCompanyFacts, formatPence } from "./index.ts";

// The package as the filing service uses it: fetch the three registry resources over HTTP from
// a stand-in registry serving fixture JSON, then derive the facts for both filing types.

const routes: Record<string, string> = {
  "/company/00000001": "company-profile.json",
  "/company/00000001/officers": "officers.json",
  "/company/00000001/filing-history?category=accounts": "filing-history.json",
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const file = routes[req.url ?? ""];
    res.writeHead(file === undefined ? 404 : 200, { "content-type": "application/json" });
    res.end(file === undefined ? "{}" : readFileSync(new URL(`./fixtures/${file}`, import.meta.url)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("@dormant/company-data", () => {
  it("fetches a company from the registry and derives both submit responses' derived values", async () => {
    const registry = createRegistryDataClient({ baseUrl, apiKey: "key", timeoutMs: 2000 });
    const [profile, officers, filingHistory] = await Promise.all([
      registry.getCompany("00000001"),
      registry.getOfficers("00000001"),
      registry.getFilingHistory("00000001", { category: "accounts" }),
    ]);
    const base = { profile, officers, filingHistory, periodEnd: "2025-03-31", today: "2025-05-01" };

    const ct600 = deriveCompanyFacts({ ...base, filingType: "ct600" });
    expect(ct600.ok && ct600.facts.derivedValues).toEqual({
      company_name: "LOVELACE ENGINES LIMITED",
      period_start: "2024-04-01",
      is_first_year: false,
      declarant_name: "Augusta Ada Lovelace",
      declarant_status: "Director",
    });

    const accounts = deriveCompanyFacts({ ...base, filingType: "accounts" });
    if (!accounts.ok) throw new Error(JSON.stringify(accounts.problems));
    expect(accounts.facts.derivedValues).toEqual({
      company_name: "LOVELACE ENGINES LIMITED",
      entity_type: "ltd",
      period_start: "2024-04-01",
      is_first_year: false,
      director_name: "Augusta Ada Lovelace",
      approval_date: "2025-05-01",
      share_capital: 100,
      cash: 100,
    });
    expect(formatPence(accounts.facts.balanceSheet.cash)).toBe("100.00");
    expect(accounts.facts.registryCompanyType).toBe("EW");
  });
});
