import type { RegistryOutcome } from "@dormant/contracts";
import { afterAll, beforeAll, describe, it } from "vitest";
import { newFilingId, registryHarness, type RegistryHarness } from "./test-support/registry-harness.ts";

// The registry can hold accounts PENDING or PARKED for days: polls back off, each change of the
// registry's status is reported once (registry.status), and only the horizon ends them in error,
// REGISTRY_NO_DECISION, distinct from the GATEWAY_TIMEOUT of a registry that never answers
// (registry-flow.test.ts, 00000004). The real simulator decides: a submission keeps the outcome
// delay in force when it was acknowledged (PUT /_control/timing), and 00000006 answers PARKED
// (with an examiner's comment) for one more delay before ACCEPT.
const HORIZON_SECONDS = 14;
let t: RegistryHarness;
const undecided = { filingId: newFilingId(), submittedAt: 0 };
const parked = { filingId: newFilingId(), submittedAt: 0 };

beforeAll(async () => {
  t = await registryHarness("registry-status-polls");
  // Waits of 1, 2, 4, 4 ... seconds (cap 4): polls at about 1, 3, 7, 11 s, and at the horizon (14 s).
  await t.startWorker({
    REGISTRY_POLL_INTERVAL_SECONDS: "1",
    REGISTRY_POLL_MAX_INTERVAL_SECONDS: "4",
    REGISTRY_POLL_HORIZON_SECONDS: String(HORIZON_SECONDS),
  });
  // Decided only two minutes after its acknowledgement: PENDING past the horizon.
  await t.control("PUT", "/timing", { outcomeDelayMs: 120_000 });
  const first = await t.submit({ filingId: undecided.filingId, companyNumber: "40000601" });
  undecided.submittedAt = Date.parse(first.submitted_at);
  // PENDING for 4 s (polls 1 and 2), PARKED for 4 s more (poll 3), then ACCEPT (poll 4, 11 s).
  await t.control("PUT", "/timing", { outcomeDelayMs: 4_000 });
  const second = await t.submit({ filingId: parked.filingId, companyNumber: "00000006" });
  parked.submittedAt = Date.parse(second.submitted_at);
});
afterAll(() => t.teardown());

const statusesOf = (filingId: string) => t.statuses.filter((s) => s.filing_id === filingId);

describe.concurrent("registry status polls", () => {
  it("PARKED: reported once when it starts (with the examiner's comment), after PENDING, and then the acceptance", async ({ expect }) => {
    const outcome = await t.outcome(parked.filingId, 20_000);
    expect(outcome).toMatchObject({ outcome: "accepted", registry_status: "ACCEPT" });
    const reports = statusesOf(parked.filingId);
    expect(reports.map((r) => [r.registry_status, r.examiner_comment])).toEqual([
      ["PENDING", undefined],
      ["PARKED", "Held for examination"],
    ]);
    expect(Date.parse(reports[1]!.polled_at)).toBeGreaterThan(Date.parse(reports[0]!.polled_at));
    expect(reports.every((r) => r.submission_number === outcome.submission_number)).toBe(true);
    // Reported on a change only: more status requests were answered PENDING or PARKED than reports sent.
    const answers = (await t.received({ company: "00000006", kind: "status" })).map((e) => e.answer);
    expect(answers.at(-1)).toBe("ACCEPT");
    expect(answers.filter((a) => a === "PENDING" || a === "PARKED").length).toBeGreaterThan(reports.length);
  });

  it("PENDING past the horizon: polls back off, PENDING is reported once, and the accounts end error REGISTRY_NO_DECISION at the horizon", async ({
    expect,
  }) => {
    const outcome: RegistryOutcome = await t.outcome(undecided.filingId, 25_000);
    const elapsed = Date.now() - undecided.submittedAt;
    expect(outcome).toMatchObject({ outcome: "error", registry_status: "PENDING", error: { code: "REGISTRY_NO_DECISION" } });
    if (outcome.outcome === "accepted") throw new Error("accepted");
    expect(outcome.error.message).toMatch(/had not decided .* It was PENDING since .* check the company's filing history/);
    expect(elapsed).toBeGreaterThanOrEqual(HORIZON_SECONDS * 1000 - 100);
    expect(elapsed).toBeLessThan(HORIZON_SECONDS * 1000 + 3_000);
    expect(statusesOf(undecided.filingId).map((r) => r.registry_status)).toEqual(["PENDING"]);

    // Polls at about 1, 3, 7, 11 s (waits 1, 2, 4, 4 s: the cap), then one last at the horizon (14 s).
    const polls = (await t.received({ company: "40000601", kind: "status" })).map((e) => ({ at: Date.parse(e.at), answer: e.answer }));
    expect(polls.map((p) => p.answer)).toEqual(["PENDING", "PENDING", "PENDING", "PENDING", "PENDING"]);
    const gaps = polls.slice(1).map((p, i) => (p.at - polls[i]!.at) / 1000);
    expect(gaps[0]).toBeGreaterThan(1.8);
    expect(gaps[0]).toBeLessThan(2.8);
    expect(gaps[1]).toBeGreaterThan(3.8);
    expect(gaps[1]).toBeLessThan(4.8);
    expect(gaps[2]).toBeGreaterThan(3.8);
    expect(gaps[2]).toBeLessThan(4.8);
    expect((polls.at(-1)!.at - undecided.submittedAt) / 1000).toBeGreaterThan(HORIZON_SECONDS - 0.5);
  });
});
