import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { placeHold, releaseHold } from "./holds.ts";
import { applyFilingOutcome } from "./apply-filing-outcome.ts";

const FEE = 2000n;
const at = new Date("2025-06-01T10:00:00.000Z");

// The submit path waits for billing.hold, and every statement costs a round trip, a syscall and
// CPU in the driver: each money move is one statement (README "Statements per operation").
describe("database round trips per operation", () => {
  const ledger = useLedgerDatabase("round_trips");
  afterEach(() => void vi.restoreAllMocks());

  /** The statements `work` sent to Postgres (any connection of the process). */
  async function statements(work: () => Promise<unknown>): Promise<string[]> {
    const spy = vi.spyOn(pg.Client.prototype, "query");
    await work();
    const sent = spy.mock.calls.map(([query]) => String(typeof query === "string" ? query : (query as { text?: unknown }).text));
    spy.mockRestore();
    return sent;
  }

  it("a hold, a repeated hold, a capture, its redelivery, a rejection and a release are one statement each", async () => {
    const accountId = await ledger.account(10_000n);
    const one = [expect.stringMatching(/^SELECT .* FROM billing_place_hold\(/)];
    expect(await statements(() => placeHold(ledger.db, { accountId, filingId: "fil_rt1", amountPence: FEE }))).toEqual(one);
    expect(await statements(() => placeHold(ledger.db, { accountId, filingId: "fil_rt1", amountPence: FEE }))).toEqual(one);
    expect(
      await statements(() => placeHold(ledger.db, { accountId, filingId: "fil_rt1", amountPence: FEE }, new AbortController().signal)),
    ).toEqual(one);

    const outcome = (filingId: string, kind: "accepted" | "rejected") =>
      applyFilingOutcome(ledger.db, { filingId, accountId, outcome: kind, messageId: `m-${filingId}`, occurredAt: at, feePence: FEE });
    const applied = [expect.stringMatching(/^SELECT .* FROM billing_apply_filing_outcome\(/)];
    expect(await statements(() => outcome("fil_rt1", "accepted"))).toEqual(applied);
    expect(await statements(() => outcome("fil_rt1", "accepted"))).toEqual(applied);
    await placeHold(ledger.db, { accountId, filingId: "fil_rt2", amountPence: FEE });
    expect(await statements(() => outcome("fil_rt2", "rejected"))).toEqual(applied);

    await placeHold(ledger.db, { accountId, filingId: "fil_rt3", amountPence: FEE });
    expect(await statements(() => releaseHold(ledger.db, { filingId: "fil_rt3", reason: "submit failed" }))).toEqual([
      expect.stringMatching(/^SELECT billing_release_hold\(/),
    ]);
    expect(await ledger.totals(accountId)).toEqual({ balance: 8000n, held: 0n, available: 8000n });
  });
});
