import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FilingKind } from "./harness/api-client.ts";
import { accountsBody, ct600Body } from "./harness/companies.ts";
import { startBroker, stopBroker } from "./harness/broker.ts";
import type { AppName } from "./harness/paths.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";
import { waitForFinal } from "./harness/wait-final.ts";

/** The bound: the filing ends accepted within 3 minutes of the submit. */
const WITHIN_MS = 180_000;

// In-doubt submissions, end to end: the authority takes a submission in and its answer never
// comes back (the simulator holds the connection open), and the submitter that sent it is
// killed (kill -9) in that moment and started again. The client submits once and never retries.
// The platform must find out from the authority itself that it has the submission (the
// Transaction Engine's DATA_REQUEST, the registry's GetSubmissionStatus), never send it again,
// and take the filing to `accepted`, charged once.
describe("a submission the authority took in, whose answer was lost with the submitter that sent it", () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({
      label: "in-doubt",
      env: {
        // The gateway gives up on the filing service's answer before the client does.
        gateway: { FILING_RPC_SUBMIT_TIMEOUT_MS: "15000" },
        // The claim the interrupted submit leaves lapses sooner; the sweeper looks every 2 s.
        filing: { SUBMIT_CLAIM_SECONDS: "20", SWEEPER_PENDING_AFTER_SECONDS: "5", SWEEPER_INTERVAL_MS: "2000" },
        "tax-submitter": { IN_DOUBT_SETTLE_SECONDS: "5" },
        "registry-submitter": { IN_DOUBT_SETTLE_SECONDS: "5" },
      },
    });
  });

  afterAll(async () => {
    // Whatever happened, the broker is left running for everything else on this machine.
    await startBroker().catch(() => undefined);
    await system?.stop();
  });

  /** What goes down while the authority holds the answer: an app (kill -9, started again a second later) or the broker. */
  type Disturbance = AppName | "broker";

  async function disturb(what: Disturbance): Promise<void> {
    if (what !== "broker") return system.crash(what, { downMs: 1_000 });
    try {
      await stopBroker();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await startBroker();
    }
  }

  async function lostAnswerThenKill(kind: FilingKind, company: string, target: "tax" | "registry", app: Disturbance) {
    const account = await system.createAccount({ balancePence: 10_000, name: `in-doubt ${kind}` });
    const client = system.client(account.liveKey);
    await system.sim.setFaults(target, { loseAnswer: "hold", loseAnswerCount: 1 });
    const started = Date.now();
    // One 12-month period: a single CT600 part (a split return's part 2, never sent when the filing
    // service dies, waits for the client's retry: apps/filing/README.md, the sweeper).
    const body =
      kind === "ct600" ? ct600Body(company, "2026-03-31", { period: { start: "2025-04-01" } }) : accountsBody(company, "2026-03-31");
    const submit = client.submit(kind, body, `in-doubt-${kind}`);
    // The authority has taken the submission in; its answer is held. Take down what waits for it.
    await expect
      .poll(async () => (await system.sim.received({ target, company, kind: "submit" })).length, { timeout: 20_000, interval: 100 })
      .toBe(1);
    await disturb(app);
    const answer = await submit;
    // The client heard nothing certain (no 202): the filing is in doubt, not dropped.
    expect(answer.status).not.toBe(202);
    // Reads may fail while an app reconnects (after a broker restart): read until one answers.
    let listed: Awaited<ReturnType<typeof client.allFilings>> | undefined;
    await expect
      .poll(
        async () => {
          listed = await client.allFilings().catch(() => undefined);
          return listed !== undefined;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    const [filing, ...others] = listed!;
    expect(others).toEqual([]);
    const final = await waitForFinal(client, filing!.filing_id, { timeoutMs: WITHIN_MS - (Date.now() - started) });
    const elapsedMs = Date.now() - started;

    expect({ status: final.status, error: final.error }).toEqual({ status: "accepted", error: undefined });
    expect(elapsedMs).toBeLessThan(WITHIN_MS);
    // One transmission: the authority took the submission in once.
    expect(await system.sim.received({ target, company, kind: "submit" })).toHaveLength(1);
    // Charged once, nothing held.
    await expect.poll(async () => (await system.billing.balance(account.accountId)).held, { timeout: 15_000 }).toBe("0.00");
    expect(await system.billing.captures(account.accountId)).toEqual([filing!.filing_id]);
    expect(await system.billing.balance(account.accountId)).toMatchObject({ balance: "80.00", held: "0.00" });
    const report = await system.billing.reconcile();
    expect(report.problems).toEqual([]);
    return { final, elapsedMs };
  }

  it("tax: the tax submitter is killed while the Transaction Engine holds the answer; the part is found by its TransactionID and accepted", async () => {
    const { final } = await lostAnswerThenKill("ct600", "72000001", "tax", "tax-submitter");
    expect(final).toMatchObject({ tax_status: "accepted", tax_correlation_id: expect.stringMatching(/^[0-9A-F]{32}$/) });
    const lookups = (await system.sim.received({ target: "tax" })).filter((entry) => entry.kind === "list");
    expect(lookups.length).toBeGreaterThan(0);
  });

  it("registry: the registry submitter is killed while the gateway holds the answer; the accounts are found by their number and accepted", async () => {
    const { final } = await lostAnswerThenKill("accounts", "72000002", "registry", "registry-submitter");
    expect(final).toMatchObject({ registry_status: "accepted" });
  });

  it("tax: the filing service is killed while the Transaction Engine holds the answer; the part is found and accepted", async () => {
    const { final } = await lostAnswerThenKill("ct600", "72000003", "tax", "filing");
    expect(final).toMatchObject({ tax_status: "accepted" });
  });

  it("registry: the broker restarts while the gateway holds the answer; the accounts are found and accepted", async () => {
    const { final } = await lostAnswerThenKill("accounts", "72000004", "registry", "broker");
    expect(final).toMatchObject({ registry_status: "accepted" });
  });
});
