import { randomUUID } from "node:crypto";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFiling } from "../reads/filing-reads.ts";
import { keyScope } from "../state/filing-scope.ts";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";
import { seedAccountsFiling } from "../test-support/seed.ts";

// The service's filing.outcomes consumer applies registry.status as the registry submitter
// publishes it (over a real vhost), and the filing read shows it until the registry decides.
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("registry_status_bus");
});
afterAll(async () => {
  await h?.teardown();
});

describe("registry.status on filing.outcomes", () => {
  it("shows PARKED on the submitted filing, once however often it is delivered, and no longer once accepted", async () => {
    const db = h.service.db;
    const filing = await seedAccountsFiling(db);
    const caller = { account_id: filing.accountId, key_id: filing.keyId, mode: "live" as const, request_id: "req-read" };
    const polledAt = new Date().toISOString();
    const report = {
      filing_id: filing.id,
      submission_number: filing.submissionNumber!,
      registry_status: "PARKED" as const,
      examiner_comment: "Held for examination",
      polled_at: polledAt,
    };
    const messageId = randomUUID();
    await h.peer.publish("registry.status", report, { messageId });
    await h.peer.publish("registry.status", report, { messageId });
    await waitFor(async () => (await db.inboxMessage.count({ where: { filingId: filing.id } })) === 1, { what: "the report applied" });
    const shown = await getFiling(db, keyScope(caller), filing.id);
    expect(shown).toMatchObject({
      status: "submitted",
      registry_status: "submitted",
      registry_examination: { status_code: "PARKED", since: polledAt, examiner_comment: "Held for examination" },
    });
    expect(await db.statusHistory.count({ where: { filingId: filing.id, field: "registry_status_code" } })).toBe(1);

    await h.peer.publish("registry.outcome", {
      outcome: "accepted",
      filing_id: filing.id,
      submission_number: filing.submissionNumber!,
      registry_status: "ACCEPT",
      decided_at: new Date().toISOString(),
    });
    expect((await h.waitForEvent(filing.id)).type).toBe("filing.accepted");
    const decided = await getFiling(db, keyScope(caller), filing.id);
    expect(decided).toMatchObject({ status: "accepted", registry_status: "accepted" });
    expect(decided).not.toHaveProperty("registry_examination");
  });
});
