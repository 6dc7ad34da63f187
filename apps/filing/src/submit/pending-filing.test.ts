import { randomUUID } from "node:crypto";
import { formatSubmissionNumber } from "@dormant/govtalk";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { newFilingId } from "../ids.ts";
import { readFiling } from "../state/filing-rows.ts";
import { seedAccountsFiling } from "../test-support/seed.ts";
import { findOrClaim, holdInDoubt } from "./claim.ts";
import type { NewFiling } from "./new-filing.ts";
import { createPendingFiling, type FilingOrigin } from "./pending-filing.ts";
import { recordTaxPartSubmitted } from "./record-submission.ts";

let database: TestDatabase;
let db: FilingDb;
beforeAll(async () => {
  database = await createFilingTestDatabase("pending");
  db = createFilingDb(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

function splitCt600(): NewFiling {
  const id = newFilingId();
  const periods = [
    { start: "2025-01-01", end: "2025-12-31" },
    { start: "2026-01-01", end: "2026-03-31" },
  ];
  return {
    id,
    filingType: "ct600",
    companyNumber: "00000005",
    companyName: "NOETHER ALGEBRAS LIMITED",
    period: { start: "2025-01-01", end: "2026-03-31" },
    periodSplit: true,
    derivedValues: {
      company_name: "NOETHER ALGEBRAS LIMITED",
      period_start: "2025-01-01",
      is_first_year: true,
      declarant_name: "Amalie Emmy Noether",
      declarant_status: "Director",
    },
    parts: periods.map((period, index) => ({
      partNumber: index + 1,
      period,
      request: {
        filing_id: id,
        part_number: index + 1,
        parts_total: 2,
        company: { number: "00000005", name: "NOETHER ALGEBRAS LIMITED", utr: "1234567890" },
        period,
        declarant: { name: "Amalie Emmy Noether", status: "Director" },
      },
    })),
    documents: [],
  };
}

const origin = (overrides: Partial<FilingOrigin> = {}): FilingOrigin => ({
  accountId: `acc_pending_${randomUUID()}`,
  keyId: "key_pending",
  idempotencyKey: randomUUID(),
  fingerprint: "f".repeat(64),
  requestId: "req-pending",
  feePence: 2000,
  claimToken: randomUUID(),
  claimSeconds: 120,
  ...overrides,
});

describe("the pending filing", () => {
  it("is written in one statement with its parts, first history and claim, and the record returned is what a read finds", async () => {
    const plan = splitCt600();
    const from = origin();
    const result = await createPendingFiling(db, plan, from);
    if (result === "exists") throw new Error("not created");
    const created = result.filing;
    expect(result.ct600Accounts).toBeNull();
    expect(await readFiling(db, plan.id)).toEqual(created);
    expect(created).toMatchObject({
      status: "pending",
      claimToken: from.claimToken,
      version: 0,
      parts: [{ taxStatus: "pending" }, { taxStatus: "pending" }],
    });
    const history = await db.statusHistory.findMany({ where: { filingId: plan.id }, orderBy: { id: "asc" } });
    expect(history.map((h) => [h.partNumber, h.field, h.fromStatus, h.toStatus, h.cause])).toEqual([
      [null, "status", null, "pending", "submit request req-pending"],
      [1, "tax_status", null, "pending", "submit request req-pending"],
      [2, "tax_status", null, "pending", "submit request req-pending"],
    ]);
    const [row] = await db.$queryRaw<Array<{ left: number }>>`
      SELECT extract(epoch FROM claim_expires_at - now())::int AS left FROM filings WHERE id = ${plan.id}`;
    expect(row!.left).toBeGreaterThan(100);
    expect(row!.left).toBeLessThanOrEqual(120);
  });

  it("is 'exists' for a second filing under the same API key and Idempotency-Key, which then finds the first claimed", async () => {
    const from = origin();
    const first = await createPendingFiling(db, splitCt600(), from);
    expect(await createPendingFiling(db, splitCt600(), { ...from, claimToken: randomUUID() })).toBe("exists");
    const claim = {
      keyId: from.keyId,
      idempotencyKey: from.idempotencyKey,
      fingerprint: from.fingerprint,
      token: randomUUID(),
      claimSeconds: 120,
      waitMs: 0,
    };
    await expect(findOrClaim(db, claim)).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_IN_USE" });
    await expect(findOrClaim(db, { ...claim, fingerprint: "0".repeat(64) })).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_CONFLICT" });
    expect(first).not.toBe("exists");
  });

  it("held after an attempt in doubt, is answered at once as in doubt with the seconds left, then claimed once the hold lapses", async () => {
    const from = origin();
    const plan = splitCt600();
    await createPendingFiling(db, plan, from);
    await holdInDoubt(db, plan.id, from.claimToken, 2);
    const claim = { keyId: from.keyId, idempotencyKey: from.idempotencyKey, fingerprint: from.fingerprint, claimSeconds: 120 };
    const started = Date.now();
    const found = await findOrClaim(db, { ...claim, token: randomUUID(), waitMs: 5_000 });
    // Not waited for: the request that held it has ended.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(found).toMatchObject({ kind: "in_doubt", filing: { id: plan.id, status: "pending" } });
    expect(found.kind === "in_doubt" && found.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(found.kind === "in_doubt" && found.retryAfterSeconds).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const token = randomUUID();
    expect(await findOrClaim(db, { ...claim, token, waitMs: 0 })).toMatchObject({
      kind: "claimed",
      filing: { id: plan.id, claimToken: token },
    });
  });

  it("is claimed by exactly one of several requests resuming it, with the record the claim left", async () => {
    const from = origin({ claimSeconds: 0 });
    const plan = splitCt600();
    await createPendingFiling(db, plan, from);
    const claim = { keyId: from.keyId, idempotencyKey: from.idempotencyKey, fingerprint: from.fingerprint, claimSeconds: 120, waitMs: 0 };
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => findOrClaim(db, { ...claim, token: randomUUID() })));
    const claimed = results.flatMap((r) => (r.status === "fulfilled" && r.value.kind === "claimed" ? [r.value.filing] : []));
    expect(claimed).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(3);
    expect(await readFiling(db, plan.id)).toEqual(claimed[0]);

    // Its acknowledgement drops the claim only once nothing is left to send, and only its own.
    const token = claimed[0]!.claimToken!;
    const answer = (n: number) => ({
      correlation_id: `C${n}`.padEnd(32, "0"),
      irmark_base64: `${"A".repeat(27)}=`,
      irmark_base32: "B".repeat(32),
      poll_interval_seconds: 1,
      submitted_at: new Date().toISOString(),
      submitted_xml: "<GovTalkMessage/>",
    });
    const one = await recordTaxPartSubmitted(db, claimed[0]!, 1, answer(1), "req", { releaseClaim: token });
    expect(one.filing).toMatchObject({ status: "pending", claimToken: token });
    const two = await recordTaxPartSubmitted(db, one.filing, 2, answer(2), "req", { releaseClaim: "another request's token" });
    expect(two.filing).toMatchObject({ status: "submitted", claimToken: token });
    expect(await readFiling(db, plan.id)).toEqual(two.filing);
  });

  it("gets its registry submission number from the sequence, formatted as formatSubmissionNumber does", async () => {
    const samples = [0, 1, 35, 36, 1295, 1296, 123_456_789, 36 ** 6 - 1];
    const rows = await db.$queryRaw<Array<{ number: string }>>`
      SELECT format_submission_number(n) AS number FROM unnest(${samples.map(String)}::bigint[]) WITH ORDINALITY AS s(n, i) ORDER BY i`;
    expect(rows.map((r) => r.number)).toEqual(samples.map(formatSubmissionNumber));
    const accounts = await seedAccountsFiling(db, { acknowledged: false });
    const [last] = await db.$queryRaw<Array<{ n: number }>>`SELECT last_value::int AS n FROM registry_submission_number_seq`;
    expect(accounts.submissionNumber).toBe(formatSubmissionNumber(last!.n));
    const stored = await readFiling(db, accounts.id);
    expect(stored!.registryRequest).toMatchObject({ filing_id: accounts.id, submission_number: accounts.submissionNumber });
  });
});
