import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiAnswer, ApiClient, SubmitData } from "../harness/api-client.ts";
import { ct600Body } from "../harness/companies.ts";
import type { SystemAccount } from "../harness/accounts.ts";
import type { RunningSystem } from "../harness/system.ts";
import { waitForFinal } from "../harness/wait-final.ts";

const OPENING_BALANCE_PENCE = 10_000;
const SIMULTANEOUS = 20;

// Issue 13 items 3 and 4 end to end, every app a process of its own: 20 simultaneous live submits
// of the same CT600 (different Idempotency-Keys) through the gateway make one filing, one fee
// and one submission at the tax authority; the other 19 answer 409 FILING_EXISTS with its id.
export function duplicateFilingsSuite(shared: () => RunningSystem): void {
  describe("no duplicate filings, end to end through the gateway", () => {
    let system: RunningSystem;
    let account: SystemAccount;
    let client: ApiClient;
    let answers: Array<ApiAnswer<SubmitData>>;
    let sinceSeq: number;

    beforeAll(async () => {
      system = shared();
      account = await system.createAccount({ balancePence: OPENING_BALANCE_PENCE });
      client = system.client(account.liveKey);
      sinceSeq = await system.sim.lastSeq();
      const body = ct600Body("00000001", "2026-03-31", { client_reference: "SYSTEM-DUP-1" });
      answers = await Promise.all(Array.from({ length: SIMULTANEOUS }, (_, i) => client.submit("ct600", body, `duplicates-${i}`)));
    });

    afterAll(async () => {
      const report = system?.crashReport();
      if (report) throw new Error(report);
    });

    it("makes one filing: one 202, and 19 answers 409 FILING_EXISTS naming it", () => {
      const created = answers.filter((a) => a.status === 202);
      expect(created).toHaveLength(1);
      const filingId = created[0]!.data!.filing_id;
      const refused = answers.filter((a) => a.status !== 202);
      expect(refused).toHaveLength(SIMULTANEOUS - 1);
      for (const answer of refused) {
        expect(answer.status).toBe(409);
        expect(answer.error).toMatchObject({ code: "FILING_EXISTS", details: [{ field: "filing_id", filing_id: filingId }] });
      }
    });

    it("sends it to the tax authority once, charges one fee, holds nothing more, and shows client_reference on every read", async () => {
      const filingId = answers.find((a) => a.status === 202)!.data!.filing_id;
      const final = await waitForFinal(client, filingId, { timeoutMs: 60_000, intervalMs: 1_000 });
      expect(final).toMatchObject({ status: "accepted", client_reference: "SYSTEM-DUP-1" });

      const submissions = (await system.sim.received({ target: "tax", kind: "submit", company: "00000001" })).filter(
        (e) => e.seq > sinceSeq,
      );
      expect(submissions).toHaveLength(1);

      await expect.poll(async () => (await system.billing.balance(account.accountId)).held, { timeout: 15_000 }).toBe("0.00");
      expect(await system.billing.balance(account.accountId)).toMatchObject({ balance: "80.00", held: "0.00", available: "80.00" });
      const ledger = await system.billing.ledger(account.accountId);
      expect(ledger.filter((line) => line.kind === "hold").map((line) => line.filing_id)).toEqual([filingId]);
      expect(ledger.filter((line) => line.kind === "capture").map((line) => line.filing_id)).toEqual([filingId]);
      expect((await system.billing.reconcile()).problems).toEqual([]);

      const listed = await client.listFilings({ client_reference: "SYSTEM-DUP-1" });
      expect(listed.data?.filings).toEqual([expect.objectContaining({ filing_id: filingId, client_reference: "SYSTEM-DUP-1" })]);
      expect((await client.listFilings({ client_reference: "SYSTEM-DUP-2" })).data?.filings).toEqual([]);
    });

    it("refuses it again once accepted, and lets another account file the same company and period", async () => {
      const filingId = answers.find((a) => a.status === 202)!.data!.filing_id;
      const again = await client.submit("ct600", ct600Body("00000001", "2026-03-31"), "duplicates-after");
      expect(again).toMatchObject({ status: 409, error: { code: "FILING_EXISTS", details: [{ filing_id: filingId }] } });

      const other = system.client((await system.createAccount({ balancePence: OPENING_BALANCE_PENCE })).liveKey);
      const theirs = await other.submit("ct600", ct600Body("00000001", "2026-03-31"), "duplicates-other");
      expect(theirs.status).toBe(202);
      expect(JSON.stringify(theirs)).not.toContain(filingId);
    });
  });
}
