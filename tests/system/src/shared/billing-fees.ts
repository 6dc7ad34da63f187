import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ct600Body } from "../harness/companies.ts";
import type { RunningSystem } from "../harness/system.ts";
import { waitForFinal } from "../harness/wait-final.ts";

// The fee rules through the whole chain: holds at submit, capture on acceptance, release
// otherwise, 402 when the available balance is short, and the ledger reconciling after it all.
export function billingFeesSuite(shared: () => RunningSystem): void {
  describe("fees of live filings, end to end through the gateway", () => {
    let system: RunningSystem;

    beforeAll(async () => {
      system = shared();
    });

    afterAll(async () => {
      const report = system?.crashReport();
      if (report) throw new Error(report);
    });

    it("costs exactly 20.00 for one acceptance and one rejection together", async () => {
      const account = await system.createAccount({ balancePence: 4_000 });
      const client = system.client(account.liveKey);
      const accepted = await client.submit("ct600", ct600Body("00000001", "2026-03-31"), "fees-accepted");
      const rejected = await client.submit("ct600", ct600Body("00000002", "2026-09-30"), "fees-rejected");
      expect([accepted.status, rejected.status]).toEqual([202, 202]);
      // Both fees are held while the authority decides.
      expect((await client.account()).data).toMatchObject({ balance: "40.00", held: "40.00", available: "0.00" });

      expect((await waitForFinal(client, accepted.data!.filing_id)).status).toBe("accepted");
      expect((await waitForFinal(client, rejected.data!.filing_id)).status).toBe("rejected");
      await expect.poll(async () => (await system.billing.balance(account.accountId)).held, { timeout: 15_000 }).toBe("0.00");
      expect(await system.billing.balance(account.accountId)).toEqual({
        account_id: account.accountId,
        balance: "20.00",
        held: "0.00",
        available: "20.00",
      });
      expect((await client.account()).data).toMatchObject({ balance: "20.00", held: "0.00", available: "20.00", currency: "GBP" });

      const ledger = await system.billing.ledger(account.accountId);
      expect(ledger.map((entry) => [entry.kind, entry.filing_id, entry.balance_delta])).toEqual(
        expect.arrayContaining([
          ["capture", accepted.data!.filing_id, "-20.00"],
          ["release", rejected.data!.filing_id, "0.00"],
        ]),
      );
      expect(ledger.filter((entry) => entry.kind === "capture")).toHaveLength(1);
    });

    it("answers 402 INSUFFICIENT_BALANCE with the required and available amounts, and files nothing", async () => {
      const account = await system.createAccount({ balancePence: 1_000 });
      const client = system.client(account.liveKey);
      const answer = await client.submit("ct600", ct600Body("71000001", "2026-03-31", { period: { start: "2025-04-01" } }), "fees-short");
      expect(answer.status).toBe(402);
      expect(answer.error).toMatchObject({
        code: "INSUFFICIENT_BALANCE",
        details: [expect.objectContaining({ field: "balance", required: "20.00", available: "10.00" })],
      });
      expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect((await client.listFilings()).data?.pagination.total).toBe(0);
      expect(await system.sim.received({ target: "tax", company: "71000001" })).toEqual([]);
      expect(await system.billing.balance(account.accountId)).toMatchObject({ balance: "10.00", held: "0.00" });
    });

    it("counts fees held for filings still in progress: the next submit is 402 until the balance is topped up", async () => {
      const account = await system.createAccount({ balancePence: 2_000 });
      const client = system.client(account.liveKey);
      const first = await client.submit(
        "accounts",
        { company_number: "SC000001", period_end: "2026-10-31", credentials: { company_auth_code: "A1B2C3" } },
        "held-first",
      );
      expect(first.status).toBe(202);
      const second = await client.submit("ct600", ct600Body("SC000001", "2026-10-31"), "held-second");
      expect(second.status).toBe(402);
      expect(second.error?.details).toEqual([expect.objectContaining({ field: "balance", required: "20.00", available: "0.00" })]);
      expect((await waitForFinal(client, first.data!.filing_id)).status).toBe("accepted");
      await expect.poll(async () => (await system.billing.balance(account.accountId)).balance, { timeout: 15_000 }).toBe("0.00");
    });

    it("reconciles the ledger after all of it", async () => {
      const report = await system.billing.reconcile();
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
    });
  });
}
