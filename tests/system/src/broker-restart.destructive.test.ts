import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBroker, stopBroker, waitForBroker } from "./harness/broker.ts";
import { collectBurstFacts } from "./harness/burst-facts.ts";
import { runBurst } from "./harness/burst.ts";
import { mixedFilings } from "./harness/companies.ts";
import { expectNoLossNoDuplicate } from "./harness/expect-burst.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";
import { WebhookListener } from "./harness/webhook-listener.ts";

/** Submits sent to a healthy broker (the restart begins while they are in flight), then while it is down and after. */
const BEFORE = 10;
const DURING_AND_AFTER = 30;
const RATE_PER_SECOND = 5;
const DOWN_MS = 3_000;
const OPENING_PENCE = 200_000;

// A real RabbitMQ restart (stop_app / start_app: every connection of every vhost drops, the
// transient RPC queues disappear, quorum queues and their messages stay) in the middle of a burst
// of live submits: every service reconnects by itself, and the burst completes as if nothing had
// happened: one filing per Idempotency-Key, each with the table's outcome, nothing sent twice,
// each acceptance charged once, and each outcome pushed to the account's webhook endpoint.
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
    const listener = await WebhookListener.start();
    const endpoint = await client.request("POST", "/webhook_endpoints", { body: { url: listener.url } });
    expect(endpoint.status).toBe(201);
    const sinceSeq = await system.sim.lastSeq();
    const filings = mixedFilings(BEFORE + DURING_AND_AFTER);
    // Whatever `rabbitmqctl stop_app` takes (seconds on a broker with many queues), the second
    // part of the burst starts only once the broker is down: its first submits meet the outage.
    const before = runBurst(client, filings.slice(0, BEFORE), { ratePerSecond: RATE_PER_SECOND, keyPrefix: "broker-before" });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    let during: ReturnType<typeof runBurst> | undefined;
    let restartingAt = Number.POSITIVE_INFINITY;
    try {
      await stopBroker();
      during = runBurst(client, filings.slice(BEFORE), { ratePerSecond: RATE_PER_SECOND, keyPrefix: "broker-during" });
      await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
    } finally {
      restartingAt = Date.now();
      await startBroker();
    }
    const duringSubmits = await during!;
    const submits = [...(await before), ...duringSubmits];
    // The outage was felt: a submit sent while the broker was down settled only once it was coming
    // back (the gateway cannot hand a filing over without the bus), held or retried by the client.
    const sentWhileDown = duringSubmits.filter((submit) => submit.sentAt < restartingAt);
    expect(sentWhileDown.length).toBeGreaterThan(0);
    for (const submit of sentWhileDown) expect(submit.settledAt).toBeGreaterThanOrEqual(restartingAt);
    const facts = await collectBurstFacts(system, client, submits, {
      accountId: account.accountId,
      openingPence: OPENING_PENCE,
      sinceSeq,
      timeoutMs: 240_000,
    });
    expectNoLossNoDuplicate(facts, filings.length);
    // Nothing lost on the notifier's side either: every outcome reached the endpoint.
    const eventOf: Record<string, string> = { accepted: "filing.accepted", rejected: "filing.rejected", error: "filing.errored" };
    const undelivered = () => [...facts.filings.values()].filter((f) => listener.ofType(eventOf[f.status]!, f.filing_id).length === 0);
    await expect.poll(() => undelivered().length, { timeout: 60_000, interval: 1_000 }).toBe(0);
    await listener.close();
    // No app died of it: each one reconnected by itself.
    for (const app of Object.values(system.apps)) expect(app.running, app.name).toBe(true);
  });
});
