import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectBurstFacts } from "./harness/burst-facts.ts";
import { runBurst } from "./harness/burst.ts";
import { mixedFilings } from "./harness/companies.ts";
import { expectNoLossNoDuplicate } from "./harness/expect-burst.ts";
import type { AppName } from "./harness/paths.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";

const BURST_SIZE = 48;
const RATE_PER_SECOND = 12;
const OPENING_PENCE = 200_000;
/** How long an authority takes to answer a submission while a worker is killed. */
const SLOW_AUTHORITY_MS = 2_000;
const SUBMITTER_ENV = { BREAKER_RESET_TIMEOUT_MS: "5000", POLL_GIVE_UP_AFTER_SECONDS: "120", IN_DOUBT_SETTLE_SECONDS: "5" };

// kill -9 of the filing service and of each submitter in the middle of a burst of live submits,
// then a restart: every submit the client retries (same Idempotency-Key, as a real client does)
// ends with exactly one filing, every filing reaches a final state (the table's outcome), no
// submission reaches an authority twice, and billing charges each acceptance once.
describe("kill -9 in the middle of a burst of live submits", () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({
      label: "crash",
      env: {
        // A killed filing service leaves its in-flight submits without an answer: give up on
        // them sooner than the default 30 s so the client's retry comes sooner.
        gateway: { FILING_RPC_SUBMIT_TIMEOUT_MS: "15000" },
        // The claim a killed filing service leaves on a pending filing lapses sooner than 120 s;
        // a filing nobody retries any more is ended after a minute instead of 15.
        filing: { SUBMIT_CLAIM_SECONDS: "20", SWEEPER_PENDING_AFTER_SECONDS: "60", SWEEPER_INTERVAL_MS: "2000" },
        // What is tested is loss and duplication, not give-up timing. The breakers' state is shared
        // through Redis, so a breaker opened by a worker starved of CPU (two system files run at
        // once) stays open across its restart: it closes after 5 s instead of 30, and polls give
        // up after 2 minutes instead of the development default of 20 s. A submission the killed
        // worker left in doubt is looked up at the authority 5 s after it was found abandoned,
        // not 30 (IN_DOUBT_SETTLE_SECONDS): the simulator records a submission the moment it
        // takes it in, so a lookup 5 s later sees it (in-doubt and replicas run on 5 s too). The
        // client's retries are answered 502 meanwhile, and nothing is sent twice, as before.
        "tax-submitter": SUBMITTER_ENV,
        "registry-submitter": SUBMITTER_ENV,
      },
    });
  });

  afterAll(async () => {
    await system?.stop();
  });

  /**
   * A burst from a fresh account; in its middle, kill -9 of `app` (with the authorities slowed
   * down first when `slowAuthority`, so that the worker dies with submissions in flight), and a
   * restart a second later. The client retries each submit until `clientPatienceMs` passed.
   */
  async function burstWithCrash(app: AppName, label: string, { slowAuthority = false, clientPatienceMs = 240_000 } = {}) {
    const account = await system.createAccount({ balancePence: OPENING_PENCE, name: `crash ${label}` });
    const client = system.client(account.liveKey);
    const sinceSeq = await system.sim.lastSeq();
    const filings = mixedFilings(BURST_SIZE);
    const burst = runBurst(client, filings, { ratePerSecond: RATE_PER_SECOND, keyPrefix: `crash-${label}`, deadlineMs: clientPatienceMs });
    await new Promise((resolve) => setTimeout(resolve, ((BURST_SIZE / RATE_PER_SECOND) * 1000) / 2));
    if (slowAuthority) {
      await system.sim.setFaults("tax", { slowMs: SLOW_AUTHORITY_MS });
      await system.sim.setFaults("registry", { slowMs: SLOW_AUTHORITY_MS });
      await new Promise((resolve) => setTimeout(resolve, SLOW_AUTHORITY_MS / 2));
    }
    await system.crash(app, { downMs: 1_000 });
    await system.sim.clearFaults();
    const submits = await burst;
    const facts = await collectBurstFacts(system, client, submits, {
      accountId: account.accountId,
      openingPence: OPENING_PENCE,
      sinceSeq,
      timeoutMs: 240_000,
    });
    return { facts, size: filings.length };
  }

  it("loses and duplicates nothing when the filing service is killed", async () => {
    const { facts, size } = await burstWithCrash("filing", "filing");
    expectNoLossNoDuplicate(facts, size);
    // The crash was felt: some submits had to be retried.
    expect(facts.retried).toBeGreaterThan(0);
  });

  it("loses and duplicates nothing when the tax submitter is killed with submissions in flight", async () => {
    // Parts in flight when the worker dies are in doubt: the authority may have them, with
    // nobody knowing their correlation id. The restarted worker asks the Transaction Engine for
    // each part's TransactionID (DATA_REQUEST) instead of sending it again, so the client's
    // retries end in one filing each, every part at the authority exactly once.
    const { facts, size } = await burstWithCrash("tax-submitter", "tax", { slowAuthority: true });
    expectNoLossNoDuplicate(facts, size);
    expect(facts.retried).toBeGreaterThan(0);
  });

  it("loses and duplicates nothing when the registry submitter is killed with submissions in flight", async () => {
    const { facts, size } = await burstWithCrash("registry-submitter", "registry", { slowAuthority: true });
    expectNoLossNoDuplicate(facts, size);
    expect(facts.retried).toBeGreaterThan(0);
  });
});
