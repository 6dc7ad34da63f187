import { PassThrough } from "node:stream";
import { AppError } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crashedAfterHold } from "../test-support/crashed-submit.ts";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";

// The real billing service runs; nothing serves tax.submit or registry.submit (the submitters are
// down): the submit fails at the submitter RPC, which must leave no filing and no hold behind,
// unless an earlier request created the filing (its attempt may be at the authority). Last,
// billing stops too: the submit fails at the hold.
let h: FilingHarness;
const logLines: string[] = [];
beforeAll(async () => {
  const destination = new PassThrough();
  destination.on("data", (chunk: Buffer) => logLines.push(chunk.toString("utf8")));
  h = await startFilingHarness("no-submitter", { billing: true, logger: createLogger({ service: "filing", level: "debug", destination }) });
});
afterAll(async () => {
  await h?.teardown();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("the submit succeeded"),
    (error: unknown) => error as AppError,
  );
const ct600 = { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" };

describe("submit with no submitter running", () => {
  it("answers TAX_UNAVAILABLE with Retry-After, removes the filing and releases the hold; a retry with the same key tries again", async () => {
    const accountId = await h.openAccount(5000);
    const caller = h.caller({ account_id: accountId });
    const error = await failure(h.submitCt600(caller, ct600, { idempotencyKey: "retry-me" }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "TAX_UNAVAILABLE", retryAfterSeconds: 30 });
    expect(await h.service.db.filing.count({ where: { accountId } })).toBe(0);
    expect(await h.availablePence(accountId)).toBe(5000);

    // The removed filing's errored event went out: it releases the hold even if the release RPC failed.
    const event = await waitFor(() => h.events.find((e) => e.payload.account_id === accountId), { what: "filing.errored" });
    expect(event).toMatchObject({ type: "filing.errored", payload: { error: { code: "AUTHORITY_UNAVAILABLE" }, filing_type: "ct600" } });
    const again = await failure(h.submitCt600(caller, ct600, { idempotencyKey: "retry-me" }));
    expect(again.code).toBe("TAX_UNAVAILABLE");
    expect(await h.availablePence(accountId)).toBe(5000);
  });

  it("keeps a filing an earlier request left pending (its attempt may be at the authority), instead of replacing it", async () => {
    // The request that created this filing died (or got no answer) after its tax.submit_part
    // went out: the authority may have the part. A retry while the submitters are down must not
    // remove the filing, or the next retry would create another one and send the return twice.
    const accountId = await h.openAccount(5000);
    const caller = h.caller({ account_id: accountId });
    const plan = await crashedAfterHold(h, caller, ct600, "earlier-attempt");
    for (let retry = 0; retry < 2; retry++) {
      const error = await failure(h.submitCt600(caller, ct600, { idempotencyKey: "earlier-attempt" }));
      expect(error).toMatchObject({ code: "TAX_UNAVAILABLE", retryAfterSeconds: 30 });
      // In doubt: the answer names the filing that will be settled with the authority (issue 25).
      expect(error.details).toEqual([
        expect.objectContaining({ field: "filing_id", filing_id: plan.id, filing_status: "pending", in_doubt: true }),
      ]);
      expect(error.message).toMatch(/settled with the tax authority and nothing will be sent twice/);
    }
    const kept = await h.service.db.filing.findMany({ where: { accountId }, select: { id: true, status: true } });
    expect(kept).toEqual([{ id: plan.id, status: "pending" }]);
    expect(await h.availablePence(accountId)).toBe(3000);
    expect(h.eventsFor(plan.id)).toEqual([]);
  });

  it("passes INSUFFICIENT_BALANCE through unchanged and keeps nothing", async () => {
    const accountId = await h.openAccount(1000);
    const error = await failure(h.submitCt600(h.caller({ account_id: accountId }), ct600));
    expect(error).toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    expect(error.details?.[0]).toMatchObject({ field: "balance", required: "20.00", available: "10.00" });
    expect(await h.service.db.filing.count({ where: { accountId } })).toBe(0);
  });

  it("answers REGISTRY_UNAVAILABLE for accounts, keeping neither the filing nor its iXBRL", async () => {
    const accountId = await h.openAccount(5000);
    const error = await failure(
      h.submitAccounts(h.caller({ account_id: accountId }), { company_number: "00000001", period_end: "2026-03-31" }),
    );
    expect(error).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryAfterSeconds: 30 });
    expect(await h.service.db.filing.count({ where: { accountId } })).toBe(0);
    expect(await h.service.db.document.count()).toBe(0);
    expect(await h.availablePence(accountId)).toBe(5000);
  });

  it("answers SERVICE_UNAVAILABLE with Retry-After when billing is out of reach, and keeps nothing new", async () => {
    const resumedCaller = h.caller({ account_id: await h.openAccount(5000) });
    const plan = await crashedAfterHold(h, resumedCaller, ct600, "earlier-attempt-billing-down");
    await h.stopBilling();
    const caller = h.caller({ account_id: "acc_billing_down" });
    const error = await failure(h.submitCt600(caller, ct600));
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryAfterSeconds: 30 });
    expect(await h.service.db.filing.count({ where: { accountId: caller.account_id } })).toBe(0);
    // A filing an earlier request created stays: its attempt may be at the authority.
    const resumed = await failure(h.submitCt600(resumedCaller, ct600, { idempotencyKey: "earlier-attempt-billing-down" }));
    expect(resumed).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(await h.service.db.filing.findMany({ where: { accountId: resumedCaller.account_id }, select: { id: true } })).toEqual([
      { id: plan.id },
    ]);
  });

  it("logged the failures, and never a password or an authentication code", () => {
    const log = logLines.join("");
    expect(log).toMatch(/submit failed before reaching an authority; filing removed/);
    expect(log).not.toContain("correct horse battery");
    expect(log).not.toContain("A1B2C3");
  });
});
