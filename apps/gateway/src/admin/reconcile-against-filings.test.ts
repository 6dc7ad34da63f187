import { randomUUID } from "node:crypto";
import { BILLING_RPC_QUEUE, type Ct600SubmitResponse } from "@dormant/contracts";
import { startFilingHarness, type FilingHarness } from "@dormant/filing/testing";
import { runCaptured, waitFor } from "@dormant/testing";
import { runRootAdmin } from "@dormant/ops/admin";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// `npm run --silent admin -- reconcile --against-filings` (the root dispatcher, in this process;
// admin/cli.test.ts runs the bin as a process), against the real filing
// service and billing (in-process, with the tax submitter and the authority simulator) on real
// Postgres and RabbitMQ: filings are submitted and decided end to end, billing captures or
// releases, then the command compares billing's ledger with the filing service's record.
let h: FilingHarness;
let accountId: string;
const since = new Date().toISOString();

/** `npm run --silent admin -- ...` in this process: the root admin CLI's dispatcher, as scripts/admin.mjs runs it. */
async function admin(amqpUrl: string, ...args: string[]) {
  const env = { ...process.env, BILLING_DATABASE_URL: h.billingDatabase!.url, AMQP_URL: amqpUrl, NODE_ENV: "development" };
  return runCaptured((streams) => runRootAdmin(args, { env, ...streams }));
}

const reconcile = (amqpUrl = h.vhost.url) =>
  admin(amqpUrl, "reconcile", "--against-filings", "--since", since, "--until", new Date(Date.now() + 60_000).toISOString());
const balance = () => h.peer.rpcCall(BILLING_RPC_QUEUE, "billing.get_balance", { account_id: accountId });

/**
 * Submits a CT600 and waits for its filing event: 00000001 is accepted, 00000002 rejected. An
 * account has one live filing per company and period end (FILING_EXISTS): another filing of the
 * same company gives another period end.
 */
async function file(companyNumber: "00000001" | "00000002", periodEnd?: string) {
  const period_end = periodEnd ?? (companyNumber === "00000001" ? "2026-03-31" : "2026-09-30");
  const answer = (await h.submitCt600(h.caller({ account_id: accountId }), {
    company_number: companyNumber,
    utr: "1234567890",
    period_end,
  })) as Ct600SubmitResponse;
  await h.waitForEvent(answer.filing_id, 15_000);
  return answer.filing_id;
}

beforeAll(async () => {
  h = await startFilingHarness("gw_reconcile", { billing: true, taxSubmitter: true });
  accountId = await h.openAccount(10_000);
}, 60_000);
afterAll(async () => {
  await h?.teardown();
});

describe("admin reconcile --against-filings (real filing service)", () => {
  it("is ok when billing charged what the filing service accepted, then reports a charge it does not back and an acceptance billing never received", async () => {
    await file("00000001");
    await file("00000002");
    // Billing applied both: one capture, nothing held.
    await waitFor(async () => ((await balance()).held_pence === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: "billing settling both filings",
    });
    expect(await balance()).toMatchObject({ balance_pence: 8000, held_pence: 0 });

    const ok = await reconcile();
    expect(ok).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(ok.stdout)).toMatchObject({
      ok: true,
      problems: [],
      warnings: [],
      against_filings: { since, pages: 1, filings: 2, accepted: 1, rejected: 1, error: 0 },
    });

    // A charge the filing service does not back: a filing.accepted for a filing it never had.
    const forged = `fil_forged${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await h.peer.rpcCall(BILLING_RPC_QUEUE, "billing.hold", { account_id: accountId, filing_id: forged, amount_pence: 2000 });
    await h.peer.publish("filing.accepted", {
      filing_id: forged,
      account_id: accountId,
      filing_type: "ct600",
      company_number: "00000001",
      occurred_at: new Date().toISOString(),
      fee_pence: 2000,
    });
    await waitFor(async () => ((await balance()).balance_pence === 6000 ? true : undefined), {
      timeoutMs: 10_000,
      what: "billing capturing the forged acceptance",
    });

    // An acceptance that never reaches billing: its event is lost on the way to billing.events.
    await h.unbindFromFilingEvents("billing.events", "filing.accepted");
    const lost = await file("00000001", "2026-03-30");
    expect((await balance()).held_pence).toBe(2000);

    const found = await reconcile();
    expect(found.code).toBe(1);
    expect(found.stderr).toContain("reconcile found problems");
    const report = JSON.parse(found.stdout) as { ok: boolean; problems: string[]; against_filings: Record<string, unknown> };
    expect(report.ok).toBe(false);
    expect(report.against_filings).toMatchObject({ filings: 3, accepted: 2, rejected: 1 });
    expect(report.problems).toHaveLength(2);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^filing ${lost}: the filing service says accepted at .*, but billing has not charged it: billing received no outcome for it; its hold of 20.00 GBP on ${accountId} is open$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(
            `^filing ${forged}: billing received its acceptance .* and captured 20.00 GBP from ${accountId}, but the filing service does not list it as finalized then`,
          ),
        ),
      ]),
    );
  }, 120_000);

  it("fails with exit 1 and a clear message when the filing service is not running on AMQP_URL", async () => {
    // The gateway tests' shared vhost: nothing serves filing.rpc there.
    const result = await reconcile(inject("gatewayAmqpUrl"));
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toContain("admin: nothing serves filing.rpc on amqp://");
    expect(result.stderr).toContain("the filing service is not running there (check AMQP_URL)");
    expect(result.stderr).not.toContain("guest:guest");
  }, 60_000);
});
