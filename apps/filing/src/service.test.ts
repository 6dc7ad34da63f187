import { randomUUID } from "node:crypto";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueEvent } from "./outbox/enqueue.ts";
import { seedCt600Filing } from "./test-support/seed.ts";
import { startFilingHarness, type FilingHarness } from "./testing/filing-harness.ts";

// The service as main.ts runs it: ops endpoints, the filing.outcomes consumer and the outbox
// relay wired together on a vhost of its own. The relay polls only once a minute here: events
// go out because the code that commits them wakes it (or because stop() flushes).
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("service", { env: { OUTBOX_RELAY_INTERVAL_MS: "60000" } });
});
afterAll(async () => {
  await h?.teardown();
});

describe("filing service", () => {
  it("serves /healthz, /readyz (database, Redis, bus) and /metrics", async () => {
    const base = `http://127.0.0.1:${h.service.opsPort}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", pid: process.pid, checks: { database: "ok", redis: "ok", bus: "ok" } });
    expect(await (await fetch(`${base}/metrics`)).text()).toContain("filing_outbox_published_total");
  });

  it("applies an outcome from filing.outcomes once, however often it is delivered, and publishes one event", async () => {
    const filing = await seedCt600Filing(h.service.db, 1);
    const outcome = {
      outcome: "accepted" as const,
      filing_id: filing.id,
      part_number: 1,
      correlation_id: filing.correlationIds[0]!,
      receipt_irmark_base32: "A".repeat(32),
      receipt_message: "received",
      accepted_time: new Date().toISOString(),
    };
    const messageId = randomUUID();
    await h.peer.publish("tax.part_outcome", outcome, { messageId });
    await h.peer.publish("tax.part_outcome", outcome, { messageId });
    await h.peer.publish("tax.part_polling", {
      filing_id: filing.id,
      part_number: 1,
      correlation_id: filing.correlationIds[0]!,
      polled_at: new Date().toISOString(),
    });

    expect((await h.waitForEvent(filing.id)).type).toBe("filing.accepted");
    await waitFor(async () => (await h.service.db.inboxMessage.count({ where: { filingId: filing.id } })) === 2, {
      what: "both messages handled",
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.eventsFor(filing.id)).toHaveLength(1);
    const transitions = await h.service.db.statusHistory.count({ where: { filingId: filing.id, toStatus: "accepted" } });
    expect(transitions).toBe(2); // the part and the filing, once each
  });

  it("stops gracefully: the ops endpoints close and the outbox is flushed before the connections", async () => {
    const opsPort = h.service.opsPort;
    // Committed but not yet relayed (the relay polls only once a minute here and nobody woke it).
    const messageId = await h.service.db.$transaction((tx) =>
      enqueueEvent(
        tx,
        "filing.errored",
        {
          filing_id: "fil_flushedonstop",
          account_id: "acc_test",
          filing_type: "ct600",
          company_number: "00000001",
          occurred_at: new Date().toISOString(),
          error: { code: "INTERNAL_ERROR", message: "x" },
        },
        "req-flush",
      ),
    );
    await h.service.stop();
    await expect(fetch(`http://127.0.0.1:${opsPort}/readyz`)).rejects.toThrow();
    await waitFor(() => h.events.find((e) => e.messageId === messageId), { timeoutMs: 2000, what: "the flushed event" });
    await h.restartService();
  });
});
