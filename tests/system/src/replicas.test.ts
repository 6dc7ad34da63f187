import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingEffects } from "./harness/billing-effects.ts";
import { collectBurstFacts } from "./harness/burst-facts.ts";
import { type BurstSubmit, runBurst } from "./harness/burst.ts";
import { mixedFilings } from "./harness/companies.ts";
import { expectNoLossNoDuplicate } from "./harness/expect-burst.ts";
import { FailoverApiClient } from "./harness/failover-client.ts";
import { type ReplicatedApp, type RunningSystem, startSystem } from "./harness/system.ts";

const BURST_SIZE = 48;
/** Filings per second, over both gateways together. */
const RATE_PER_SECOND = 12;
const OPENING_PENCE = 200_000;
/** How long the authorities take to answer while the replicas are killed (work in flight at every hop). */
const SLOW_AUTHORITY_MS = 1_500;
const REPLICAS = { gateway: 2, filing: 2, billing: 2, "tax-submitter": 3, "registry-submitter": 2 } as const satisfies Partial<
  Record<ReplicatedApp, number>
>;
const SUBMITTER_ENV = { IN_DOUBT_SETTLE_SECONDS: "5", BREAKER_RESET_TIMEOUT_MS: "5000", POLL_GIVE_UP_AFTER_SECONDS: "120" };
const KILLED: readonly ReplicatedApp[] = ["gateway", "filing", "billing", "tax-submitter", "registry-submitter"];

// Several replicas of everything (README "Scaling at a filing deadline"; docs/operations/replicas.md):
// 2 gateways, 2 filing services, 2 billing services, 3 tax and 2 registry submitters on one
// Postgres, Redis and RabbitMQ vhost, live filings through both gateways, and in the middle of the
// burst kill -9 of one replica of each kind at once, not started again: the survivors must take
// over everything the dead ones had in flight (unacknowledged messages, claims, outbox rows,
// submissions in doubt), as they would until an orchestrator replaces the dead ones.
describe("several replicas of every app, one of each killed mid-burst", () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({
      label: "replicas",
      replicas: REPLICAS,
      env: {
        // A submit whose filing service died is answered 503 after 10 s (not 30), and a dead
        // gateway's hold on an Idempotency-Key lapses after 6 s (not 60): the client's retry comes sooner.
        gateway: { FILING_RPC_SUBMIT_TIMEOUT_MS: "10000", IDEMPOTENCY_CLAIM_TTL_MS: "6000" },
        // A dead filing service's claim on a pending filing lapses after 12 s; the sweeper settles
        // filings pending for 10 s, every 2 s.
        filing: { SUBMIT_CLAIM_SECONDS: "12", SWEEPER_PENDING_AFTER_SECONDS: "10", SWEEPER_INTERVAL_MS: "2000" },
        // A submission whose worker died is asked about after 5 s. Fourteen processes share two
        // cores: an authority call starved of CPU may time out and open the (shared) breaker, so
        // it closes again after 5 s, and polls give up after 2 minutes rather than 20 s.
        "tax-submitter": SUBMITTER_ENV,
        "registry-submitter": SUBMITTER_ENV,
      },
    });
  });

  afterAll(async () => {
    await system?.stop();
  });

  it("ends every filing, each part at its authority once, each acceptance charged once, reconcile clean", async () => {
    expect(system.gatewayUrls).toHaveLength(2);
    const account = await system.createAccount({ balancePence: OPENING_PENCE, name: "replicas" });
    // One client per gateway, each failing over to the other when its own is gone (a load balancer).
    const clients = system.gatewayUrls.map((_, gateway) => new FailoverApiClient(system.gatewayUrls, account.liveKey, gateway));
    const sinceSeq = await system.sim.lastSeq();
    const filings = mixedFilings(BURST_SIZE);
    const bursts = clients.map((client, gateway) =>
      runBurst(
        client,
        filings.filter((_, index) => index % clients.length === gateway),
        { ratePerSecond: RATE_PER_SECOND / clients.length, keyPrefix: `replicas-gw${gateway}`, deadlineMs: 120_000 },
      ),
    );

    // Halfway through the burst, with the authorities slowed so that submissions are in flight
    // at every hop: kill -9 of the last replica of each kind, all at once.
    await new Promise((resolve) => setTimeout(resolve, ((BURST_SIZE / RATE_PER_SECOND) * 1000) / 2));
    await system.sim.setFaults("tax", { slowMs: SLOW_AUTHORITY_MS });
    await system.sim.setFaults("registry", { slowMs: SLOW_AUTHORITY_MS });
    await new Promise((resolve) => setTimeout(resolve, SLOW_AUTHORITY_MS / 2));
    const victims = KILLED.map((app) => system.replicas(app).at(-1)!);
    await Promise.all(victims.map((victim) => victim.kill9()));
    await system.sim.clearFaults();

    const submits: BurstSubmit[] = (await Promise.all(bursts)).flat();
    const facts = await collectBurstFacts(system, clients[0]!, submits, {
      accountId: account.accountId,
      openingPence: OPENING_PENCE,
      sinceSeq,
      timeoutMs: 120_000,
    });
    // Every filing final with the table's outcome, one per Idempotency-Key; every CT600 part and
    // accounts submission taken in by its authority exactly once; one capture per acceptance,
    // no hold left; reconcile clean.
    expectNoLossNoDuplicate(facts, filings.length);
    // Both gateways took filings in, and the dead one's clients went on through the other.
    expect(submits.filter((submit) => submit.idempotencyKey.startsWith("replicas-gw1")).length).toBeGreaterThan(0);
    expect(clients[1]!.failedOver).toBeGreaterThan(0);

    // No outbox event had billing's effect twice, however often it was delivered: per filing one
    // applied outcome, the one its final status says, carried by one of the filing service's own
    // outbox events (all published); one capture if accepted, none otherwise; every hold given
    // back or captured.
    const effects = await billingEffects(system, account.accountId, [...facts.filings.values()]);
    expect(effects).toHaveLength(filings.length);
    for (const effect of effects) {
      const outcome = effect.status === "accepted" ? "accepted" : effect.status === "rejected" ? "rejected" : "errored";
      const summary = JSON.stringify(effect);
      expect(
        effect.outcomesApplied.map((applied) => applied.outcome).filter((applied) => applied === outcome),
        summary,
      ).toHaveLength(1);
      const applied = effect.outcomesApplied.find((row) => row.outcome === outcome)!;
      expect(
        effect.outboxEvents.some((event) => event.messageId === applied.messageId),
        summary,
      ).toBe(true);
      expect(
        effect.outboxEvents.every((event) => event.published),
        summary,
      ).toBe(true);
      expect(effect.captures, summary).toBe(effect.status === "accepted" ? 1 : 0);
      expect(effect.holds - effect.releases - effect.captures, summary).toBe(0);
    }

    // The survivors are all still serving, and nothing exited that was not killed.
    for (const app of KILLED) {
      const survivors = system.replicas(app).filter((replica) => replica.running);
      expect(survivors, app).toHaveLength(REPLICAS[app as keyof typeof REPLICAS] - 1);
    }
    for (const [app, count] of Object.entries(REPLICAS)) {
      for (let replica = 0; replica < count - 1; replica++) {
        expect((await fetch(`${system.opsUrl(app as ReplicatedApp, replica)}/readyz`)).status, `${app} ${replica}`).toBe(200);
      }
    }
    expect(system.crashReport()).toBe("");
  });
});
