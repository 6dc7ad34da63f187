import { sealSecret, submissionBinding, TAX_SUBMIT_QUEUE, type SubmitTaxPartRequest } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOrClaim, releaseClaim } from "../submit/claim.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";
import { seedAccountsFiling, seedCt600Filing, submitAnswer } from "../test-support/seed.ts";
import { busSubmissionResolver } from "./resolve-submissions.ts";
import { sweepPendingFilings, type SweepDeps } from "./sweep-pending.ts";

// The sweeper asks the real tax submitter (in-process, against the simulator) over the bus; no
// registry submitter runs here, so accounts cannot be settled (nobody to ask).
let h: FilingHarness;
let deps: SweepDeps;
beforeAll(async () => {
  h = await startFilingHarness("sweeper", { taxSubmitter: true });
  deps = {
    db: h.service.db,
    resolver: busSubmissionResolver(h.service.bus),
    logger: createLogger({ service: "sweeper-test", level: "silent" }),
  };
});
afterAll(async () => {
  await h?.teardown();
});

const eventsOf = async (filingId: string) =>
  (await h.service.db.outboxMessage.findMany({ where: { payload: { path: ["filing_id"], equals: filingId } } })).map((row) => [
    row.type,
    (row.payload as { error?: { code: string } }).error?.code,
  ]);
const filingRow = (id: string) =>
  h.service.db.filing.findUniqueOrThrow({ where: { id }, include: { parts: { orderBy: { partNumber: "asc" } } } });
const credentials = { government_gateway_id: "GGUSER01", government_gateway_password: "correct horse battery" };
const sweep = (olderThanSeconds = 0, batchSize = 100, partlySentGiveUpSeconds = 3600) =>
  sweepPendingFilings(deps, { olderThanSeconds, batchSize, partlySentGiveUpSeconds });

describe("pending sweeper", () => {
  it("ends filings none of whose submissions ever reached the authority, releasing their key", async () => {
    const unsent = await seedCt600Filing(h.service.db, 1, { acknowledged: false, idempotencyKey: "crashed-1", companyNumber: "61000001" });
    const split = await seedCt600Filing(h.service.db, 2, { acknowledged: false, idempotencyKey: "crashed-2", companyNumber: "61000002" });
    await new Promise((resolve) => setTimeout(resolve, 20));

    const result = await sweep();
    expect(result.unsent.sort()).toEqual([unsent.id, split.id].sort());
    for (const id of [unsent.id, split.id]) {
      const filing = await filingRow(id);
      expect(filing).toMatchObject({ status: "error", errorCode: "INTERNAL_ERROR", claimToken: null, idempotencyKey: null });
      expect(await eventsOf(id)).toEqual([["filing.errored", "INTERNAL_ERROR"]]);
      const last = await h.service.db.statusHistory.findFirstOrThrow({ where: { filingId: id, field: "status" }, orderBy: { id: "desc" } });
      expect(last).toMatchObject({
        fromStatus: "pending",
        toStatus: "error",
        cause: expect.stringMatching(/^sweeper: .*never reached the authority/),
      });
    }
    expect(h.sim.context.received.list({ target: "tax", company: "61000001" })).toEqual([]);
    expect((await sweep()).unsent).not.toContain(unsent.id);
  });

  it("never ends a part the authority acknowledged: a part that never left waits for the client's retry, then only that part ends error", async () => {
    const partly = await seedCt600Filing(h.service.db, 2, { acknowledged: false, idempotencyKey: "crashed-3", companyNumber: "61000003" });
    await recordTaxPartSubmitted(h.service.db, partly.id, 1, submitAnswer(partly.correlationIds[0]!), "before the crash");
    await new Promise((resolve) => setTimeout(resolve, 20));

    // Only the client's retry with the same key can send part 2 (it brings the credentials).
    expect((await sweep()).awaitingRetry).toEqual([partly.id]);
    const waiting = await filingRow(partly.id);
    expect(waiting).toMatchObject({ status: "pending", idempotencyKey: "crashed-3" });
    expect(waiting.parts.map((part) => part.taxStatus)).toEqual(["submitted", "pending"]);
    expect(waiting.resolveAfter!.getTime()).toBeGreaterThan(Date.now());
    expect(Object.values(await sweep()).flat()).not.toContain(partly.id);

    // Past the give-up time: part 2 ends error, part 1 (at the authority) goes on.
    await h.service.db.filing.update({ where: { id: partly.id }, data: { resolveAfter: null } });
    expect((await sweep(0, 100, 0)).partlySent).toEqual([partly.id]);
    const filing = await filingRow(partly.id);
    expect(filing).toMatchObject({ status: "submitted", idempotencyKey: "crashed-3" });
    expect(filing.parts.map((part) => [part.taxStatus, part.errorCode])).toEqual([
      ["submitted", null],
      ["error", "INTERNAL_ERROR"],
    ]);
    expect(await eventsOf(partly.id)).toEqual([]);
  });

  it("records a part the submitter had acknowledged before the filing service died, and the filing is polled to acceptance", async () => {
    const seeded = await seedCt600Filing(h.service.db, 1, { acknowledged: false, idempotencyKey: "crashed-4", companyNumber: "61000004" });
    const row = await filingRow(seeded.id);
    // The dead process had sent tax.submit_part and the submitter got the authority's acknowledgement.
    const sent = await h.peer.rpcCall(TAX_SUBMIT_QUEUE, "tax.submit_part", {
      ...(row.parts[0]!.submitRequest as Omit<SubmitTaxPartRequest, "credentials">),
      credentials: sealSecret(credentials, h.config.sealingKeys[0]!, submissionBinding(seeded.id, 1)),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect((await sweep()).acknowledged).toEqual([seeded.id]);
    expect(await filingRow(seeded.id)).toMatchObject({
      status: "submitted",
      parts: [{ taxCorrelationId: sent.correlation_id, taxStatus: expect.stringMatching(/submitted|polling|accepted/) }],
    });
    expect((await h.waitForEvent(seeded.id)).type).toBe("filing.accepted");
    expect(h.sim.context.received.list({ target: "tax", company: "61000004", kind: "submit" })).toHaveLength(1);
  });

  it("leaves a filing pending while its submission cannot be settled (no submitter to ask), and asks again only after the time given", async () => {
    const accounts = await seedAccountsFiling(h.service.db, { acknowledged: false, companyNumber: "61000005" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await sweep()).inDoubt).toContain(accounts.id);
    const filing = await filingRow(accounts.id);
    expect(filing.status).toBe("pending");
    expect(filing.resolveAfter!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(await sweep()).toMatchObject({ inDoubt: expect.not.arrayContaining([accounts.id]) });
    expect(await eventsOf(accounts.id)).toEqual([]);
  });

  it("leaves young pending filings and filings a request holds alone", async () => {
    const young = await seedCt600Filing(h.service.db, 1, { acknowledged: false });
    const working = await seedCt600Filing(h.service.db, 1, { acknowledged: false, claimSeconds: 300 });
    const result = await sweep(600);
    expect(Object.values(result).flat()).not.toContain(young.id);
    expect((await filingRow(young.id)).status).toBe("pending");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Object.values(await sweep()).flat()).not.toContain(working.id);
    expect((await filingRow(working.id)).status).toBe("pending");
  });

  it("leaves alone an old filing whose client is still retrying: its age counts from the last request's end", async () => {
    const seeded = await seedCt600Filing(h.service.db, 1, { acknowledged: false, idempotencyKey: "retrying-1", companyNumber: "61000006" });
    await h.service.db.filing.update({ where: { id: seeded.id }, data: { createdAt: new Date(Date.now() - 3_600_000) } });
    const row = await filingRow(seeded.id);
    // A retry claims it a minute later than the sweep's threshold, fails before the authority and releases it.
    const request = { keyId: row.keyId, idempotencyKey: "retrying-1", fingerprint: row.requestFingerprint, claimSeconds: 20, waitMs: 0 };
    expect((await findOrClaim(h.service.db, { ...request, token: "retry-1" })).kind).toBe("claimed");
    await releaseClaim(h.service.db, seeded.id, "retry-1");
    // A retry right after claims it again at once.
    expect((await findOrClaim(h.service.db, { ...request, token: "retry-2" })).kind).toBe("claimed");
    await releaseClaim(h.service.db, seeded.id, "retry-2");

    expect(Object.values(await sweep(600)).flat()).not.toContain(seeded.id);
    expect(await filingRow(seeded.id)).toMatchObject({ status: "pending", idempotencyKey: "retrying-1" });
    // Once nobody has worked on it for the sweep's threshold, it is settled as any other.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await sweep(0)).unsent).toContain(seeded.id);
  });

  it("ends each filing once when several replicas sweep at the same time", async () => {
    const seeded = await Promise.all(Array.from({ length: 12 }, () => seedCt600Filing(h.service.db, 1, { acknowledged: false })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sweeps = await Promise.all([1, 2, 3].map(() => sweep(0, 5)));
    const again = await sweep();
    const ended = [...sweeps, again].flatMap((s) => s.unsent);
    expect(new Set(ended).size).toBe(ended.length);
    const ours = new Set(seeded.map((s) => s.id));
    expect(ended.filter((id) => ours.has(id)).sort()).toEqual([...ours].sort());
    for (const { id } of seeded) expect(await eventsOf(id)).toHaveLength(1);
  });
});
