import { randomUUID } from "node:crypto";
import { Filing, type FilingRpcCaller, type RegistryStatusReport } from "@dormant/contracts";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { getFiling } from "../reads/filing-reads.ts";
import { keyScope } from "../state/filing-scope.ts";
import { seedAccountsFiling, type SeededFiling } from "../test-support/seed.ts";
import { applyOutcome } from "./apply-outcome.ts";
import { applyRegistryOutcome, applyRegistryStatus } from "./registry-changes.ts";

// registry.status (the registry holds the accounts PENDING or PARKED): kept on the filing and
// shown while it is submitted, never a status change. Real Postgres, as the other outcome tests.
let database: TestDatabase;
let db: FilingDb;
beforeAll(async () => {
  database = await createFilingTestDatabase("registry_status");
  db = createFilingDb(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const caller = (filing: SeededFiling): FilingRpcCaller => ({
  account_id: filing.accountId,
  key_id: filing.keyId,
  mode: "live",
  request_id: "req-read",
});
const at = (iso: string) => new Date(iso).toISOString();

function report(
  filing: SeededFiling,
  code: "PENDING" | "PARKED",
  polledAt: string,
  extra: Partial<RegistryStatusReport> = {},
): RegistryStatusReport {
  return { filing_id: filing.id, submission_number: filing.submissionNumber!, registry_status: code, polled_at: at(polledAt), ...extra };
}
const applyStatus = (payload: RegistryStatusReport, messageId = randomUUID()) =>
  applyOutcome(
    db,
    { messageId, type: "registry.status", filingId: payload.filing_id, requestId: "req-status" },
    applyRegistryStatus(payload),
  );

async function stored(filingId: string) {
  const row = await db.filing.findUniqueOrThrow({ where: { id: filingId } });
  const history = await db.statusHistory.findMany({ where: { filingId, field: "registry_status_code" }, orderBy: { id: "asc" } });
  const events = await db.outboxMessage.count({ where: { payload: { path: ["filing_id"], equals: filingId } } });
  return {
    status: row.status,
    registryStatus: row.registryStatus,
    code: row.registryStatusCode,
    since: row.registryStatusSince?.toISOString() ?? null,
    comment: row.registryExaminerComment,
    history: history.map((h) => [h.fromStatus, h.toStatus]),
    events,
  };
}

describe("registry.status", () => {
  it("keeps PENDING, then PARKED with the examiner's comment, with history rows; the filing stays submitted and shows it", async () => {
    const filing = await seedAccountsFiling(db);
    expect(await applyStatus(report(filing, "PENDING", "2026-05-01T10:00:05Z"))).toBe("applied");
    expect(await stored(filing.id)).toEqual({
      status: "submitted",
      registryStatus: "submitted",
      code: "PENDING",
      since: at("2026-05-01T10:00:05Z"),
      comment: null,
      history: [[null, "PENDING"]],
      events: 0,
    });
    expect((await getFiling(db, keyScope(caller(filing)), filing.id)).registry_examination).toEqual({
      status_code: "PENDING",
      since: at("2026-05-01T10:00:05Z"),
    });

    expect(await applyStatus(report(filing, "PARKED", "2026-05-02T09:30:00Z", { examiner_comment: "Held for examination" }))).toBe(
      "applied",
    );
    expect(await stored(filing.id)).toMatchObject({
      status: "submitted",
      registryStatus: "submitted",
      code: "PARKED",
      since: at("2026-05-02T09:30:00Z"),
      comment: "Held for examination",
      history: [
        [null, "PENDING"],
        ["PENDING", "PARKED"],
      ],
      events: 0,
    });
    const view = await getFiling(db, keyScope(caller(filing)), filing.id);
    expect(Filing.parse(view)).toEqual(view);
    expect(view).toMatchObject({
      status: "submitted",
      registry_status: "submitted",
      registry_examination: { status_code: "PARKED", since: at("2026-05-02T09:30:00Z"), examiner_comment: "Held for examination" },
    });
    const cause = await db.statusHistory.findFirstOrThrow({
      where: { filingId: filing.id, field: "registry_status_code", toStatus: "PARKED" },
    });
    expect(cause.cause).toMatch(/^registry\.status message .* \(examiner: Held for examination\)$/);
  });

  it("changes nothing for a redelivery, the same status again, an older report, or another submission", async () => {
    const filing = await seedAccountsFiling(db);
    const messageId = randomUUID();
    expect(await applyStatus(report(filing, "PARKED", "2026-05-02T10:00:00Z"), messageId)).toBe("applied");
    const before = await stored(filing.id);
    expect(await applyStatus(report(filing, "PARKED", "2026-05-02T10:00:00Z"), messageId)).toBe("duplicate");
    expect(await applyStatus(report(filing, "PARKED", "2026-05-02T11:00:00Z"))).toBe("ignored");
    // A PENDING report that was overtaken by the later PARKED one.
    expect(await applyStatus(report(filing, "PENDING", "2026-05-02T09:00:00Z"))).toBe("ignored");
    expect(await applyStatus(report(filing, "PENDING", "2026-05-03T09:00:00Z", { submission_number: "ZZZZZZ" }))).toBe("ignored");
    expect(await stored(filing.id)).toEqual(before);
  });

  it("keeps the time a code was first seen when only the examiner's comment changes", async () => {
    const filing = await seedAccountsFiling(db);
    await applyStatus(report(filing, "PARKED", "2026-05-02T10:00:00Z", { examiner_comment: "Held for examination" }));
    expect(
      await applyStatus(report(filing, "PARKED", "2026-05-04T10:00:00Z", { examiner_comment: "Awaiting a reply from the presenter" })),
    ).toBe("applied");
    expect(await stored(filing.id)).toMatchObject({
      code: "PARKED",
      since: at("2026-05-02T10:00:00Z"),
      comment: "Awaiting a reply from the presenter",
    });
  });

  it("is ignored once the registry decided, and the decided filing no longer shows it", async () => {
    const filing = await seedAccountsFiling(db);
    await applyStatus(report(filing, "PARKED", "2026-05-02T10:00:00Z"));
    const decided = {
      outcome: "accepted",
      filing_id: filing.id,
      submission_number: filing.submissionNumber!,
      registry_status: "ACCEPT",
      decided_at: new Date().toISOString(),
    } as const;
    expect(
      await applyOutcome(
        db,
        { messageId: randomUUID(), type: "registry.outcome", filingId: filing.id, requestId: "r" },
        applyRegistryOutcome(decided),
      ),
    ).toBe("applied");
    expect(await applyStatus(report(filing, "PENDING", "2026-05-05T10:00:00Z"))).toBe("ignored");
    expect(await stored(filing.id)).toMatchObject({ status: "accepted", registryStatus: "accepted", code: "PARKED" });
    const view = await getFiling(db, keyScope(caller(filing)), filing.id);
    expect(view.status).toBe("accepted");
    expect(view).not.toHaveProperty("registry_examination");
  });

  it("on a pending filing (its submit not recorded yet) is kept but moves no status", async () => {
    const filing = await seedAccountsFiling(db, { acknowledged: false });
    expect(await applyStatus(report(filing, "PENDING", "2026-05-01T10:00:05Z"))).toBe("applied");
    expect(await stored(filing.id)).toMatchObject({ status: "pending", registryStatus: "pending", code: "PENDING", events: 0 });
  });
});
