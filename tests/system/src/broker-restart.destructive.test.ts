import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForBroker, restartBroker } from "./harness/broker.ts";
import { collectBurstFacts } from "./harness/burst-facts.ts";
import { runBurst } from "./harness/burst.ts";
import { mixedFilings } from "./harness/companies.ts";
import { expectNoLossNoDuplicate } from "./harness/expect-burst.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";

const BURST_SIZE = 40;
/** Slow enough (10 s) that the broker is down while submits are still being sent, even when `rabbitmqctl stop_app` takes seconds to act. */
const RATE_PER_SECOND = 4;
/** When the restart starts, after the burst's first submits have gone through a healthy broker. */
const RESTART_AFTER_MS = 1_500;
const OPENING_PENCE = 200_000;

// A real RabbitMQ restart (stop_app / start_app: every connection of every vhost drops, the
// transient RPC queues disappear, quorum queues and their messages stay) in the middle of a burst
// of live submits: every service reconnects by itself, and the burst completes as if nothing had
// happened: one filing per Idempotency-Key, each with the table's outcome, nothing sent twice,
// each acceptance charged once.
describe("RabbitMQ restarted in the middle of a burst of live submits", () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({
      label: "broker",
      env: {
        gateway: { FILING_RPC_SUBMIT_TIMEOUT_MS: "15000" },
        filing: { SUBMIT_CLAIM_SECONDS: "20" },
      },
    });
  });

  afterAll(async () => {
    // Whatever happened, the broker is left running for everything else on this machine.
    await waitForBroker();
    const report = system?.crashReport();
    await system?.stop();
    if (report) throw new Error(report);
  });

  it("completes every filing once after the broker comes back", async () => {
    const account = await system.createAccount({ balancePence: OPENING_PENCE, name: "broker restart" });
    const client = system.client(account.liveKey);
    const sinceSeq = await system.sim.lastSeq();
    const filings = mixedFilings(BURST_SIZE);
    const burst = runBurst(client, filings, { ratePerSecond: RATE_PER_SECOND, keyPrefix: "broker" });
    await new Promise((resolve) => setTimeout(resolve, RESTART_AFTER_MS));
    await restartBroker({ downMs: 3_000 });
    const submits = await burst;
    const facts = await collectBurstFacts(system, client, submits, { accountId: account.accountId, openingPence: OPENING_PENCE, sinceSeq, timeoutMs: 240_000 });
    expectNoLossNoDuplicate(facts, filings.length);
    expect(facts.retried, "no submit was retried: the broker went down only after the burst").toBeGreaterThan(0);
    // No app died of it: each one reconnected by itself.
    for (const app of Object.values(system.apps)) expect(app.running, app.name).toBe(true);
  });
});
