import type { CompanyDeadlines } from "@dormant/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../harness/api-client.ts";
import { accountsBody, ct600Body } from "../harness/companies.ts";
import type { RunningSystem } from "../harness/system.ts";

// GET /companies/{company_number}/deadlines through the whole system, every app a process of its
// own: the gateway asks the filing service (filing.deadlines), which reads the registry's public
// data from the simulator (cached in Redis) and its own filings. 00000001: accounts filed to
// 2025-03-31, so the current period is 2025-04-01..2026-03-31.
const PATH = "/companies/00000001/deadlines";
const filingsOf = (data: CompanyDeadlines | undefined) =>
  [...(data?.accounts_periods ?? []), ...(data?.ct600_periods ?? [])].flatMap((p) => p.filings);

export function deadlinesSuite(shared: () => RunningSystem): void {
  describe("company deadlines, end to end through the gateway", () => {
    let system: RunningSystem;
    let owner: ApiClient;
    let ownerTest: ApiClient;
    let other: ApiClient;
    const ids = {} as Record<"accounts" | "ct600", string>;

    beforeAll(async () => {
      system = shared();
      const account = await system.createAccount({ balancePence: 100_000 });
      owner = system.client(account.liveKey);
      ownerTest = system.client(account.testKey);
      other = system.client((await system.createAccount({ balancePence: 100_000 })).liveKey);
      const accounts = await owner.submit("accounts", accountsBody("00000001", "2026-03-31"), "deadlines-accounts");
      const ct600 = await owner.submit("ct600", ct600Body("00000001", "2026-03-31"), "deadlines-ct600");
      if (accounts.status !== 202 || !accounts.data || ct600.status !== 202 || !ct600.data) {
        throw new Error(
          `submits answered ${accounts.status} ${JSON.stringify(accounts.error)} / ${ct600.status} ${JSON.stringify(ct600.error)}`,
        );
      }
      ids.accounts = accounts.data.filing_id;
      ids.ct600 = ct600.data.filing_id;
    }, 180_000);
    it("shows a live key its own filings in the periods they cover", async () => {
      const answer = await owner.request<CompanyDeadlines>("GET", PATH);
      expect(answer.status).toBe(200);
      const [current, next] = answer.data?.accounts_periods ?? [];
      expect(current).toMatchObject({ kind: "current", period: { start: "2025-04-01", end: "2026-03-31" }, due_on: "2026-12-31" });
      expect(current?.filings).toEqual([{ filing_id: ids.accounts, status: expect.any(String) }]);
      expect(next).toMatchObject({ kind: "next", period: { start: "2026-04-01", end: "2027-03-31" }, filings: [] });
      const returns = answer.data?.ct600_periods ?? [];
      expect(returns[0]).toMatchObject({ period: { start: "2025-04-01", end: "2026-03-31" }, filing_deadline: "2027-03-31" });
      expect(returns[0]?.filings).toEqual([{ filing_id: ids.ct600, status: expect.any(String) }]);
    });

    it("never shows them to another account's key", async () => {
      const answer = await other.request<CompanyDeadlines>("GET", PATH);
      expect(answer.status).toBe(200);
      expect(answer.data?.accounts_periods[0]?.period).toEqual({ start: "2025-04-01", end: "2026-03-31" });
      expect(filingsOf(answer.data)).toEqual([]);
    });

    it("answers the owner's test key from the sandbox, without filings", async () => {
      const answer = await ownerTest.request<CompanyDeadlines>("GET", PATH);
      expect(answer.status).toBe(200);
      expect(answer.data?.sandbox).toBe(true);
      expect(filingsOf(answer.data)).toEqual([]);
    });
  });
}
