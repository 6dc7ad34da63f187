import { randomUUID } from "node:crypto";
import type { FinalFiling } from "@dormant/contracts";
import { createTestVhost, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withFilingService } from "../admin/filing-service.ts";
import { reconcileAgainstFilings } from "../admin/operations.ts";
import { startFilingServiceStandIn, type FilingServiceStandIn } from "../test-support/filing-service-stand-in.ts";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { crossCheckWithFilings } from "./filings-cross-check.ts";
import { placeHold, releaseHold } from "./holds.ts";
import { applyFilingOutcome } from "./apply-filing-outcome.ts";

// Billing's ledger on a real database, checked against what a filing service says over a real
// RabbitMQ vhost (a stand-in answering filing.list_final from a list; the gateway's admin CLI test
// runs the real filing service). Each test has a window of its own, so their records never meet.
const FEE = 2000n;
const ledger = useLedgerDatabase("cross_check");
let vhost: TestVhost;
let filingService: FilingServiceStandIn;

beforeAll(async () => {
  vhost = await createTestVhost("bill_cross_check");
  filingService = await startFilingServiceStandIn(vhost.url);
});
afterAll(async () => {
  await filingService?.stop();
  await vhost?.delete();
});

/** A moment in month `month` of 2025 (the 10th, `minute` past noon, plus `ms`). */
const at = (month: number, minute: number, ms = 0) => new Date(Date.UTC(2025, month - 1, 10, 12, minute, 0, ms)).toISOString();
const windowOf = (month: number) => ({ since: new Date(Date.UTC(2025, month - 1, 1)), until: new Date(Date.UTC(2025, month, 1)) });

const held = (accountId: string, filingId: string) => placeHold(ledger.db, { accountId, filingId, amountPence: FEE });
const settled = (accountId: string, filingId: string, outcome: "accepted" | "rejected" | "errored", occurredAt: string) =>
  applyFilingOutcome(ledger.db, { filingId, accountId, outcome, messageId: randomUUID(), occurredAt: new Date(occurredAt), feePence: FEE });
/** Adds to what the filing service says. */
function says(filing_id: string, account_id: string, status: FinalFiling["status"], finalized_at: string, fee_pence = 2000): void {
  filingService.filings.push(
    status === "accepted" ? { filing_id, account_id, status, fee_pence, finalized_at } : { filing_id, account_id, status, finalized_at },
  );
}
const check = (month: number, pageSize?: number) =>
  withFilingService(vhost.url, (listFinal) =>
    crossCheckWithFilings(ledger.db, listFinal, { ...windowOf(month), ...(pageSize ? { pageSize } : {}) }),
  );

describe("reconcile against the filing service", () => {
  it("is ok when billing charged exactly the acceptances the filing service lists, and nothing else", async () => {
    const a = await ledger.account(20_000n, "match");
    await held(a, "fil_m1");
    await settled(a, "fil_m1", "accepted", at(2, 1));
    says("fil_m1", a, "accepted", at(2, 1));
    await held(a, "fil_m2");
    await settled(a, "fil_m2", "rejected", at(2, 2));
    says("fil_m2", a, "rejected", at(2, 2));
    await held(a, "fil_m3");
    await settled(a, "fil_m3", "errored", at(2, 3));
    says("fil_m3", a, "error", at(2, 3));
    // Errored before its hold (billing.hold failed): nothing to release.
    await settled(a, "fil_m4", "errored", at(2, 4));
    says("fil_m4", a, "error", at(2, 4));
    // Removed after a failed submit: released at once, its filing.errored arrives; the filing service no longer has it.
    await held(a, "fil_m5");
    await releaseHold(ledger.db, { filingId: "fil_m5", reason: "submit failed" });
    await settled(a, "fil_m5", "errored", at(2, 5));
    // Accepted and charged the month before: outside this window on both sides.
    await held(a, "fil_m0");
    await settled(a, "fil_m0", "accepted", "2025-01-31T23:59:59.999Z");
    says("fil_m0", a, "accepted", "2025-01-31T23:59:59.999Z");

    expect(await check(2)).toEqual({
      ok: true,
      problems: [],
      warnings: [],
      checked: {
        since: "2025-02-01T00:00:00.000Z",
        until: "2025-03-01T00:00:00.000Z",
        pages: 1,
        filings: 4,
        accepted: 1,
        rejected: 1,
        error: 2,
      },
    });
  });

  it("reports an acceptance whose event never reached billing, and a rejection whose hold is still open", async () => {
    const a = await ledger.account(20_000n, "lost");
    // Held, then the filing.accepted event was lost (say, in an outbox): the hold is still open.
    await held(a, "fil_l1");
    says("fil_l1", a, "accepted", at(3, 1));
    // Never held, never heard of.
    says("fil_l2", a, "accepted", at(3, 2));
    // A rejection reached billing first (released), then an acceptance: never charged after a
    // rejection (a released hold is charged late only when no rejection came: late-acceptances.test.ts).
    await held(a, "fil_l3");
    await settled(a, "fil_l3", "rejected", at(3, 3));
    await settled(a, "fil_l3", "accepted", at(3, 3));
    says("fil_l3", a, "accepted", at(3, 3));
    // Rejected, and its filing.rejected was lost: the money is right, the hold should go.
    await held(a, "fil_l4");
    says("fil_l4", a, "rejected", at(3, 4));
    // Matching.
    await held(a, "fil_l5");
    await settled(a, "fil_l5", "accepted", at(3, 5));
    says("fil_l5", a, "accepted", at(3, 5));

    const report = await check(3);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      `filing fil_l1: the filing service says accepted at ${at(3, 1)} (fee 20.00 GBP from ${a}), but billing has not charged it: billing received no outcome for it; its hold of 20.00 GBP on ${a} is open`,
      `filing fil_l2: the filing service says accepted at ${at(3, 2)} (fee 20.00 GBP from ${a}), but billing has not charged it: billing received no outcome for it; billing never held a fee for it`,
      `filing fil_l3: the filing service says accepted at ${at(3, 3)} (fee 20.00 GBP from ${a}), but billing has not charged it: billing received the acceptance but had no open hold to capture; its hold of 20.00 GBP on ${a} is released`,
    ]);
    expect(report.warnings).toEqual([
      `filing fil_l4: the filing service says rejected at ${at(3, 4)}, but its hold of 20.00 GBP on ${a} is open (billing received no outcome for it)`,
    ]);
    expect(report.checked).toMatchObject({ pages: 1, filings: 5, accepted: 4, rejected: 1, error: 0 });
  });

  it("reports a capture, or an acceptance, that the filing service does not back", async () => {
    const a = await ledger.account(20_000n, "unbacked");
    const b = await ledger.account(20_000n, "other");
    // Charged, but the filing service says rejected.
    await held(a, "fil_u1");
    await settled(a, "fil_u1", "accepted", at(4, 1));
    says("fil_u1", a, "rejected", at(4, 1));
    // Charged, and the filing service lists nothing finalized then.
    await held(a, "fil_u2");
    await settled(a, "fil_u2", "accepted", at(4, 2));
    // An acceptance without a hold (nothing charged), unknown to the filing service.
    await settled(a, "fil_u3", "accepted", at(4, 3));
    // Charged from another account and another amount than the filing service names.
    await held(a, "fil_u4");
    await settled(a, "fil_u4", "accepted", at(4, 4));
    says("fil_u4", b, "accepted", at(4, 4), 2500);
    // An acceptance (nothing charged: never held) for a filing the filing service says ended in error.
    await settled(a, "fil_u5", "accepted", at(4, 5));
    says("fil_u5", a, "error", at(4, 5));

    const report = await check(4);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      `filing fil_u1: the filing service says rejected at ${at(4, 1)}, but billing captured 20.00 GBP from ${a} for it`,
      `filing fil_u4: the filing service says accepted at ${at(4, 4)} for account ${b}, but billing charged ${a}`,
      `filing fil_u4: the filing service says accepted at ${at(4, 4)} with a fee of 25.00 GBP, but billing captured 20.00 GBP`,
      `filing fil_u5: the filing service says error at ${at(4, 5)}, but billing received an acceptance for it (nothing captured: billing never held a fee for it)`,
      `filing fil_u2: billing received its acceptance (occurred at ${at(4, 2)}, account ${a}) and captured 20.00 GBP from ${a}, but the filing service does not list it as finalized then (unknown to it, not final, or finalized at another time)`,
      `filing fil_u3: billing received its acceptance (occurred at ${at(4, 3)}, account ${a}) and charged nothing (no open hold), but the filing service does not list it as finalized then (unknown to it, not final, or finalized at another time)`,
    ]);
    expect(report.warnings).toEqual([]);
  });

  it("walks several pages: every listed filing compared once, every acceptance billing has in the window looked at once", async () => {
    const a = await ledger.account(50_000n, "pages");
    // Listed, in order: pages of two are [pA, pB] [pC, pD] [pE, pF] [pG], three of them tied at one instant.
    const listed: Array<[string, FinalFiling["status"], string]> = [
      ["fil_pA", "accepted", at(5, 1)],
      ["fil_pB", "rejected", at(5, 2)],
      ["fil_pC", "accepted", at(5, 2)],
      ["fil_pD", "error", at(5, 2)],
      ["fil_pE", "accepted", at(5, 3)],
      ["fil_pF", "accepted", at(5, 4)],
      ["fil_pG", "accepted", at(5, 5)],
    ];
    for (const [id, status, time] of listed) {
      says(id, a, status, time);
      if (id === "fil_pF") continue; // its acceptance never reached billing
      await held(a, id);
      await settled(a, id, status === "accepted" ? "accepted" : status === "rejected" ? "rejected" : "errored", time);
    }
    // Acceptances only billing has, in the ranges of different pages (ids compared byte by byte:
    // fil_pBz comes after fil_pB and before fil_pC; fil_pZ after fil_pD), and two just outside the window.
    const unlisted: Array<[string, string]> = [
      ["fil_pBz", at(5, 2)],
      ["fil_pAb", at(5, 1, 500)],
      ["fil_pZ", at(5, 2)],
      ["fil_pH", at(5, 30)],
      ["fil_pUntil", "2025-06-01T00:00:00.000Z"],
      ["fil_pSince", "2025-04-30T23:59:59.999Z"],
    ];
    for (const [id, time] of unlisted) {
      await held(a, id);
      await settled(a, id, "accepted", time);
    }

    filingService.requests.length = 0;
    const paged = await check(5, 2);
    expect(filingService.requests.map((request) => [request.limit, request.after])).toEqual([
      [2, undefined],
      [2, { finalized_at: at(5, 2), filing_id: "fil_pB" }],
      [2, { finalized_at: at(5, 2), filing_id: "fil_pD" }],
      [2, { finalized_at: at(5, 4), filing_id: "fil_pF" }],
    ]);
    expect(paged.checked).toEqual({
      since: "2025-05-01T00:00:00.000Z",
      until: "2025-06-01T00:00:00.000Z",
      pages: 4,
      filings: 7,
      accepted: 5,
      rejected: 1,
      error: 1,
    });
    const named = (problems: string[]) => problems.map((problem) => /^filing (\S+):/.exec(problem)?.[1]);
    // Page by page: the listed filings' findings, then the acceptances of the page's range it does not list.
    expect(named(paged.problems)).toEqual(["fil_pAb", "fil_pBz", "fil_pF", "fil_pZ", "fil_pH"]);
    expect(paged.problems[2]).toContain("the filing service says accepted");
    expect(paged.problems.filter((problem) => problem.includes("does not list it"))).toHaveLength(4);

    // One page sees the same, in the order of the window.
    const whole = await check(5);
    expect(whole.checked.pages).toBe(1);
    expect([...whole.problems].sort()).toEqual([...paged.problems].sort());
  });

  it("a filing accepted after it ended error: one charge backed by the acceptance, no problem in either window, a correction in the report", async () => {
    const a = await ledger.account(10_000n, "late");
    // Ended error in August (billing released the hold), accepted in September: the filing service now
    // lists it as accepted at its new finalized_at, and the late filing.accepted carries that time.
    await held(a, "fil_late_x1");
    await settled(a, "fil_late_x1", "errored", at(8, 1));
    await applyFilingOutcome(ledger.db, {
      filingId: "fil_late_x1",
      accountId: a,
      outcome: "accepted",
      messageId: randomUUID(),
      occurredAt: new Date(at(9, 1)),
      feePence: FEE,
      corrects: "error",
    });
    says("fil_late_x1", a, "accepted", at(9, 1));
    // Out of order in September: the acceptance reached billing before the error.
    await held(a, "fil_late_x2");
    await applyFilingOutcome(ledger.db, {
      filingId: "fil_late_x2",
      accountId: a,
      outcome: "accepted",
      messageId: randomUUID(),
      occurredAt: new Date(at(9, 2)),
      feePence: FEE,
      corrects: "error",
    });
    await settled(a, "fil_late_x2", "errored", at(9, 0));
    says("fil_late_x2", a, "accepted", at(9, 2));
    expect(await ledger.totals(a)).toEqual({ balance: 6000n, held: 0n, available: 6000n });

    expect(await check(8)).toMatchObject({ ok: true, problems: [], warnings: [], checked: { filings: 0 } });
    expect(await check(9)).toEqual({
      ok: true,
      problems: [],
      warnings: [],
      checked: {
        since: "2025-09-01T00:00:00.000Z",
        until: "2025-10-01T00:00:00.000Z",
        pages: 1,
        filings: 2,
        accepted: 2,
        rejected: 0,
        error: 0,
      },
    });

    const report = await withFilingService(vhost.url, (listFinal) => reconcileAgainstFilings(ledger.db, listFinal, windowOf(9)));
    const ours = (text: string) => text.includes("fil_late_x");
    expect(report.problems.filter(ours)).toEqual([]);
    expect(report.warnings.filter(ours)).toEqual([]);
    expect(report.corrections.filter((correction) => correction.account_id === a)).toEqual([
      expect.objectContaining({
        filing_id: "fil_late_x1",
        ended_error_at: at(8, 1),
        accepted_at: at(9, 1),
        charged: "20.00",
        how: "after_release",
      }),
      expect.objectContaining({
        filing_id: "fil_late_x2",
        ended_error_at: at(9, 0),
        accepted_at: at(9, 2),
        charged: "20.00",
        how: "from_open_hold",
      }),
    ]);
    expect(report.against_filings).toMatchObject({ filings: 2, accepted: 2 });
  });
});
