import { randomUUID } from "node:crypto";
import { createTestVhost, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeHold } from "../ledger/holds.ts";
import { applyFilingOutcome } from "../ledger/apply-filing-outcome.ts";
import { startFilingServiceStandIn, type FilingServiceStandIn } from "../test-support/filing-service-stand-in.ts";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { runBillingAdminCli } from "./cli-commands.ts";

// `admin reconcile --against-filings` as the root CLI runs it (runBillingAdminCli, in process):
// billing's database and a RabbitMQ vhost from the environment, one JSON object on stdout, the
// exit codes of reconcile. (The gateway's admin CLI test runs it as a process against the real
// filing service.)
describe("admin reconcile --against-filings", () => {
  const ledger = useLedgerDatabase("reconcile_cli");
  let vhost: TestVhost;
  let empty: TestVhost;
  let filingService: FilingServiceStandIn;

  beforeAll(async () => {
    [vhost, empty] = await Promise.all([createTestVhost("bill_reconcile_cli"), createTestVhost("bill_reconcile_nobody")]);
    filingService = await startFilingServiceStandIn(vhost.url);
  });
  afterAll(async () => {
    await filingService?.stop();
    await Promise.all([vhost?.delete(), empty?.delete()]);
  });

  async function admin(amqpUrl: string, ...argv: string[]) {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runBillingAdminCli(
      argv,
      { BILLING_DATABASE_URL: ledger.url, AMQP_URL: amqpUrl },
      {
        stdout: { write: (chunk: string) => stdout.push(chunk) > 0 } as NodeJS.WriteStream,
        stderr: { write: (chunk: string) => stderr.push(chunk) > 0 } as NodeJS.WriteStream,
      },
    );
    return { code, stdout: stdout.join(""), stderr: stderr.join("") };
  }

  it("prints one report with what was compared, exits 0 when billing matches and 1 with the report when it does not", async () => {
    const accountId = await ledger.account(10_000n, "cli");
    await placeHold(ledger.db, { accountId, filingId: "fil_cli1", amountPence: 2000n });
    await applyFilingOutcome(ledger.db, {
      filingId: "fil_cli1",
      accountId,
      outcome: "accepted",
      messageId: randomUUID(),
      occurredAt: new Date("2025-03-02T10:00:00.000Z"),
      feePence: 2000n,
    });
    filingService.filings.push({
      filing_id: "fil_cli1",
      account_id: accountId,
      status: "accepted",
      fee_pence: 2000,
      finalized_at: "2025-03-02T10:00:00.000Z",
    });

    const ok = await admin(vhost.url, "reconcile", "--against-filings", "--since", "2025-03-01", "--until", "2025-04-01");
    expect(ok).toMatchObject({ code: 0, stderr: "" });
    expect(ok.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(ok.stdout)).toEqual({
      ok: true,
      problems: [],
      warnings: [],
      corrections: [],
      checked: { accounts: 1, entries: 3, holds: 1, filings_with_outcome: 1 },
      against_filings: {
        since: "2025-03-01T00:00:00.000Z",
        until: "2025-04-01T00:00:00.000Z",
        pages: 1,
        filings: 1,
        accepted: 1,
        rejected: 0,
        error: 0,
      },
    });

    // A late acceptance: ended error on the 4th (hold released), accepted on the 5th; the filing
    // service lists it as accepted at its new finalized_at. A correction, not a problem.
    await placeHold(ledger.db, { accountId, filingId: "fil_cli3", amountPence: 2000n });
    await applyFilingOutcome(ledger.db, {
      filingId: "fil_cli3",
      accountId,
      outcome: "errored",
      messageId: randomUUID(),
      occurredAt: new Date("2025-03-04T10:00:00.000Z"),
    });
    await applyFilingOutcome(ledger.db, {
      filingId: "fil_cli3",
      accountId,
      outcome: "accepted",
      messageId: randomUUID(),
      occurredAt: new Date("2025-03-05T10:00:00.000Z"),
      feePence: 2000n,
      corrects: "error",
    });
    filingService.filings.push({
      filing_id: "fil_cli3",
      account_id: accountId,
      status: "accepted",
      fee_pence: 2000,
      finalized_at: "2025-03-05T10:00:00.000Z",
    });
    const correction = {
      filing_id: "fil_cli3",
      account_id: accountId,
      ended_error_at: "2025-03-04T10:00:00.000Z",
      hold_released_at: expect.any(String),
      accepted_at: "2025-03-05T10:00:00.000Z",
      charged_at: expect.any(String),
      charged: "20.00",
      how: "after_release",
      corrects: "error",
    };
    const corrected = await admin(vhost.url, "reconcile", "--against-filings", "--since", "2025-03-01", "--until", "2025-04-01");
    expect(corrected).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(corrected.stdout)).toMatchObject({
      ok: true,
      problems: [],
      warnings: [],
      corrections: [correction],
      against_filings: { filings: 2, accepted: 2 },
    });

    // An acceptance whose event never reached billing (here: billing never held it either).
    filingService.filings.push({
      filing_id: "fil_cli2",
      account_id: accountId,
      status: "accepted",
      fee_pence: 2000,
      finalized_at: "2025-03-03T10:00:00.000Z",
    });
    const problems = await admin(vhost.url, "reconcile", "--against-filings", "--since", "2025-03-01T00:00:00Z");
    expect(problems.code).toBe(1);
    expect(JSON.parse(problems.stdout)).toMatchObject({
      ok: false,
      problems: [
        expect.stringMatching(
          /^filing fil_cli2: the filing service says accepted at 2025-03-03T10:00:00.000Z .* but billing has not charged it/,
        ),
      ],
      corrections: [correction],
      against_filings: { since: "2025-03-01T00:00:00.000Z", filings: 3 },
    });
    expect(problems.stderr).toBe("admin: reconcile found problems (listed in the report)\n");

    // Without the option: the ledger alone, no bus needed (even a broker nobody listens on).
    const ledgerOnly = await admin("amqp://guest:guest@127.0.0.1:1/", "reconcile");
    expect(ledgerOnly.code).toBe(0);
    expect(JSON.parse(ledgerOnly.stdout)).not.toHaveProperty("against_filings");
    expect(JSON.parse(ledgerOnly.stdout)).toMatchObject({ ok: true, corrections: [correction] });
  });

  it("exits 1 with the reason on stderr and nothing on stdout when the filing service does not answer", async () => {
    const nobody = await admin(empty.url, "reconcile", "--against-filings");
    expect(nobody).toMatchObject({ code: 1, stdout: "" });
    expect(nobody.stderr).toMatch(
      /^admin: nothing serves filing\.rpc on amqp:\/\/127\.0\.0\.1:5672\/.*: the filing service is not running there \(check AMQP_URL\)\n$/,
    );
  });

  it("exits 2 for a bad window", async () => {
    const bad = await admin(vhost.url, "reconcile", "--against-filings", "--since", "2025-04-01", "--until", "2025-03-01");
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain("--since (2025-04-01T00:00:00.000Z) must be before --until (2025-03-01T00:00:00.000Z)");
    expect(bad.stderr).toContain("admin reconcile [--stale-hold-hours N] [--against-filings [--since ISO] [--until ISO]]");
  });
});
