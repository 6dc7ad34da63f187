import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import { newFilingId, taxHarness, type TaxHarness } from "./test-support/tax-harness.ts";

// A part given up at its give-up time is checked again: the Transaction Engine decides after 5 s
// here, the worker gives up after 2 s, then checks every second for 10 s.
let t: TaxHarness;
beforeAll(async () => {
  t = await taxHarness("tax-late-check");
  // Hung polls (00000004) are held longer than the worker waits: its own timeout ends them.
  await t.control("PUT", "/timing", { outcomeDelayMs: 5_000, pollIntervalSeconds: 1, hangMs: 20_000 });
  await t.startWorker({
    POLL_GIVE_UP_AFTER_SECONDS: "2",
    TAX_LATE_CHECK_SECONDS: "10",
    TAX_LATE_CHECK_INTERVAL_SECONDS: "1",
    AUTHORITY_TIMEOUT_MS: "2000",
  });
});
afterAll(() => t.teardown());

const outcomesOf = (filingId: string) => t.reported.outcomes.filter((outcome) => outcome.filing_id === filingId);

describe.concurrent("tax submitter: late checks after a give-up", () => {
  it("publishes the authority's late acceptance after the part's GATEWAY_TIMEOUT, then deletes it there", async ({ expect }) => {
    const filingId = newFilingId();
    const { correlation_id, irmark_base32 } = await t.submit({ filingId, companyNumber: "00000001" });
    const given = await t.outcome(filingId, 1, 8_000);
    expect(given).toMatchObject({ outcome: "error", correlation_id, error: { code: "GATEWAY_TIMEOUT" } });
    const late = await waitFor(() => outcomesOf(filingId).find((outcome) => outcome.outcome === "accepted"), {
      timeoutMs: 12_000,
      what: "the late acceptance",
    });
    expect(late).toMatchObject({ correlation_id, receipt_irmark_base32: irmark_base32 });
    await waitFor(async () => (await t.received({ company: "00000001", kind: "delete" })).some((e) => e.correlationId === correlation_id));
    const polls = (await t.received({ company: "00000001", kind: "poll" })).filter((e) => e.correlationId === correlation_id);
    expect(polls.at(-1)?.answer).toBe("response");
    // Nothing after the acceptance: the checks stop.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(outcomesOf(filingId).map((outcome) => outcome.outcome)).toEqual(["error", "accepted"]);
    expect((await t.received({ company: "00000001", kind: "poll" })).filter((e) => e.correlationId === correlation_id)).toHaveLength(
      polls.length,
    );
  });

  it("publishes nothing more when the late checks end unanswered (00000004 never answers)", async ({ expect }) => {
    const filingId = newFilingId();
    const { correlation_id, submitted_at } = await t.submit({ filingId, companyNumber: "00000004" });
    expect(await t.outcome(filingId, 1, 8_000)).toMatchObject({ outcome: "error", error: { code: "GATEWAY_TIMEOUT" } });
    // The checks run until 2 + 10 s after the submission, each poll held at most 2 s.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(submitted_at) + 15_000 - Date.now())));
    const polls = (await t.received({ company: "00000004", kind: "poll" })).filter((e) => e.correlationId === correlation_id);
    expect(polls.length).toBeGreaterThan(2);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await t.received({ company: "00000004", kind: "poll" })).filter((e) => e.correlationId === correlation_id)).toHaveLength(
      polls.length,
    );
    expect(outcomesOf(filingId).map((outcome) => outcome.outcome)).toEqual(["error"]);
  });
});
