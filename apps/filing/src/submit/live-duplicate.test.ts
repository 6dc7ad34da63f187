import { randomUUID } from "node:crypto";
import { type AppError, FILING_RPC_QUEUE, type Ct600SubmitResponse, type FilingRpcCaller } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";

// No duplicate filings (issue 13 item 3) and client_reference (item 4), through the whole live
// CT600 path in-process: the filing service, the real billing service and tax submitter, the
// simulator, on real Postgres, Redis and RabbitMQ.
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("live-duplicate", { billing: true, taxSubmitter: true });
});
afterAll(async () => {
  await h?.teardown();
});

const ACCEPTED = { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" };
const REJECTED = { company_number: "00000002", utr: "1234567890", period_end: "2026-09-30" };

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (answer) => ({ ok: true as const, answer: answer as Ct600SubmitResponse }),
    (error: unknown) => ({ ok: false as const, error: error as AppError }),
  );
const taxSubmits = (company: string) => h.sim.context.received.list({ target: "tax", company, kind: "submit" }).length;
const filingsOf = (accountId: string) => h.service.db.filing.findMany({ where: { accountId } });

async function funded(balancePence = 10_000): Promise<FilingRpcCaller> {
  return h.caller({ account_id: await h.openAccount(balancePence), key_id: `key_${randomUUID()}` });
}

describe("no duplicate filings", () => {
  it("answers one of 20 simultaneous submits (different Idempotency-Keys) and FILING_EXISTS with its id to the other 19", async () => {
    const caller = await funded();
    const sentBefore = taxSubmits(ACCEPTED.company_number);
    const results = await Promise.all(Array.from({ length: 20 }, () => outcome(h.submitCt600(caller, ACCEPTED))));

    const created = results.flatMap((r) => (r.ok ? [r.answer] : []));
    const refused = results.flatMap((r) => (r.ok ? [] : [r.error]));
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(19);
    const filingId = created[0]!.filing_id;
    for (const error of refused) {
      expect(error).toMatchObject({ code: "FILING_EXISTS", httpStatus: 409, retryable: false });
      expect(error.details).toEqual([{ field: "filing_id", message: expect.any(String), filing_id: filingId }]);
    }
    expect((await filingsOf(caller.account_id)).map((f) => f.id)).toEqual([filingId]);
    expect(taxSubmits(ACCEPTED.company_number) - sentBefore).toBe(1);

    // One fee, captured once; nothing else held for the refused submits.
    expect((await h.waitForEvent(filingId)).type).toBe("filing.accepted");
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 8_000, { what: "one fee captured" });
    // Once accepted, filing again is still refused.
    const again = await outcome(h.submitCt600(caller, ACCEPTED));
    expect(again).toMatchObject({ ok: false, error: { code: "FILING_EXISTS", details: [{ filing_id: filingId }] } });
    expect(await h.availablePence(caller.account_id)).toBe(8_000);
  });

  it("replays the original answer to its own Idempotency-Key, not 409", async () => {
    const caller = await funded();
    const idempotencyKey = randomUUID();
    const first = (await h.submitCt600(caller, ACCEPTED, { idempotencyKey })) as Ct600SubmitResponse;
    const other = await outcome(h.submitCt600(caller, ACCEPTED));
    expect(other).toMatchObject({ ok: false, error: { code: "FILING_EXISTS", details: [{ filing_id: first.filing_id }] } });
    expect(await h.submitCt600(caller, ACCEPTED, { idempotencyKey })).toEqual(first);
  });

  it("is per account: another key of the same account is refused with the filing's id", async () => {
    const caller = await funded();
    const first = (await h.submitCt600(caller, ACCEPTED)) as Ct600SubmitResponse;
    const sameAccount = h.caller({ account_id: caller.account_id, key_id: `key_${randomUUID()}` });
    const second = await outcome(h.submitCt600(sameAccount, ACCEPTED));
    expect(second).toMatchObject({ ok: false, error: { code: "FILING_EXISTS", details: [{ filing_id: first.filing_id }] } });
  });

  it("lets another account file the same company and period, revealing nothing of the first", async () => {
    const first = (await h.submitCt600(await funded(), ACCEPTED)) as Ct600SubmitResponse;
    const other = await funded();
    const second = (await h.submitCt600(other, ACCEPTED)) as Ct600SubmitResponse;
    expect(second.filing_id).not.toBe(first.filing_id);
    expect(JSON.stringify(second)).not.toContain(first.filing_id);
    expect((await filingsOf(other.account_id)).map((f) => f.id)).toEqual([second.filing_id]);
  });

  it("allows filing again once the filing is rejected, and another period at any time", async () => {
    const caller = await funded();
    const rejected = (await h.submitCt600(caller, REJECTED)) as Ct600SubmitResponse;
    // While it is submitted, another submit is refused.
    const meanwhile = await outcome(h.submitCt600(caller, REJECTED));
    expect(meanwhile).toMatchObject({ ok: false, error: { code: "FILING_EXISTS" } });
    expect((await h.waitForEvent(rejected.filing_id)).type).toBe("filing.rejected");

    const again = (await h.submitCt600(caller, REJECTED)) as Ct600SubmitResponse;
    expect(again.filing_id).not.toBe(rejected.filing_id);
    const otherPeriod = (await h.submitCt600(caller, ACCEPTED)) as Ct600SubmitResponse;
    expect(otherPeriod.status).toBe("submitted");
  });
});

describe("client_reference", () => {
  it("is stored, answered, shown on reads, a list filter, and carried in the filing's event", async () => {
    const caller = await funded();
    const answer = (await h.submitCt600(caller, { ...ACCEPTED, client_reference: "ACME-42" })) as Ct600SubmitResponse;
    expect(answer.client_reference).toBe("ACME-42");
    expect((await h.waitForEvent(answer.filing_id)).payload).toMatchObject({ client_reference: "ACME-42" });

    const filing = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get", { caller, filing_id: answer.filing_id });
    expect(filing.client_reference).toBe("ACME-42");
    const other = (await h.submitCt600(caller, REJECTED)) as Ct600SubmitResponse;
    expect(other.client_reference).toBeUndefined();

    const list = (criteria: { client_reference?: string }) =>
      h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list", { caller, criteria: { ...criteria, limit: 20, offset: 0 } });
    const matching = await list({ client_reference: "ACME-42" });
    expect(matching.filings).toEqual([expect.objectContaining({ filing_id: answer.filing_id, client_reference: "ACME-42" })]);
    expect(matching.pagination.total).toBe(1);
    expect((await list({ client_reference: "ACME-4" })).filings).toEqual([]);
    const all = await list({});
    expect(all.filings.map((f) => f.filing_id).sort()).toEqual([answer.filing_id, other.filing_id].sort());
    expect(all.filings.find((f) => f.filing_id === other.filing_id)?.client_reference).toBeUndefined();
  });
});
