import type { Filing } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminStatus, deadLetterQueues, type AdminStatusReport } from "./harness/admin-status.ts";
import type { ApiClient } from "./harness/api-client.ts";
import { startBroker, stopBroker, waitForBroker } from "./harness/broker.ts";
import { collectBurstFacts } from "./harness/burst-facts.ts";
import { mixedFilings } from "./harness/companies.ts";
import { expectNoLossNoDuplicate } from "./harness/expect-burst.ts";
import type { AppName } from "./harness/paths.ts";
import { submitSteadily } from "./harness/steady-submits.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";
import { type ReceivedWebhook, WebhookListener } from "./harness/webhook-listener.ts";

const RATE_PER_SECOND = 1.2;
/** More than the faults take at this rate: the submits stop once the last fault is over. */
const MAX_FILINGS = 400;
const OPENING_PENCE = 2_000_000;
/** Between two faults: the system works normally for a while. */
const CALM_MS = 6_000;
/** How long the broker stays down, and the tax authority answers a share of requests with errors. */
const BROKER_DOWN_MS = 3_000;
const AUTHORITY_ERRORS_MS = 6_000;
const AUTHORITY_ERROR_RATE = 0.3;
/** While a submitter is killed, its authority answers slowly, so it dies with submissions in flight. */
const SLOW_AUTHORITY_MS = 1_500;
/** Every service but the simulator (it is the authorities), the ones on the reply path first. */
const KILLED_IN_TURN: readonly AppName[] = ["tax-submitter", "filing", "registry-submitter", "billing", "notifier", "gateway"];
const SUBMITTER_ENV = { BREAKER_RESET_TIMEOUT_MS: "5000", IN_DOUBT_SETTLE_SECONDS: "5" };

/** The documents of an accepted filing (spec: GET /filings/{id}/documents): one of each per CT600 part. */
function expectedDocuments(filing: Filing): string[] {
  if (filing.filing_type === "accounts") return ["accounts_pdf", "ixbrl_accounts"];
  const parts = filing.parts?.length ?? 1;
  return Array.from({ length: parts }, () => ["ct600_pdf", "ct600_xml"]).flat();
}

/** The events the listener received for `filingId` of `type`, by event id (a redelivery repeats an id). */
function eventIds(listener: WebhookListener, type: string, filingId: string): Set<string> {
  return new Set(listener.ofType(type, filingId).map((hook: ReceivedWebhook) => String(hook.headers["webhook-id"])));
}

// Issue 25's fault run, longer than the other destructive tests: live CT600s (a split one among
// them) and dormant accounts at a steady rate, all for companies the authorities accept, while
// every service in turn is killed with SIGKILL and restarted, RabbitMQ is restarted (stop_app /
// start_app: every connection of every vhost drops) and the tax authority answers 30 % of its
// requests with a system error for a few seconds. The submitters run on the development defaults
// (give-up in minutes, late checks on). Afterwards: every filing accepted, each part at its
// authority once, each charged once, the ledger reconciling; every accepted filing has its
// documents and its webhooks (filing.accepted, one filing.documents_ready); `admin status` healthy
// with every dead-letter queue empty.
describe("a fault run: every service killed in turn, the broker restarted, authority errors, under steady live filings", () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({
      label: "faultrun",
      env: {
        // A killed filing service leaves the gateway's submits without an answer: the client's retry comes sooner.
        gateway: { FILING_RPC_SUBMIT_TIMEOUT_MS: "15000" },
        // The claim of a killed filing service lapses sooner; the sweeper settles what nobody retries.
        filing: { SUBMIT_CLAIM_SECONDS: "20", SWEEPER_PENDING_AFTER_SECONDS: "30", SWEEPER_INTERVAL_MS: "2000" },
        // Breakers (shared through Redis) close after 5 s rather than 30; the give-up stays the default.
        "tax-submitter": SUBMITTER_ENV,
        "registry-submitter": SUBMITTER_ENV,
        notifier: { WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,2,5" },
      },
    });
  });

  afterAll(async () => {
    // Whatever happened, the broker is left running for everything else on this machine.
    await waitForBroker();
    await system?.sim.clearFaults().catch(() => undefined);
    const report = system?.crashReport();
    await system?.stop();
    if (report) throw new Error(report);
  });

  /** The faults, one after the other, with calm between them; answers what happened when, for the failure message. */
  async function runFaults(): Promise<string[]> {
    const log: string[] = [];
    const calm = () => new Promise((resolve) => setTimeout(resolve, CALM_MS));
    const note = (what: string) => log.push(`${new Date().toISOString()} ${what}`);
    await calm();
    for (const app of KILLED_IN_TURN) {
      const submitter = app === "tax-submitter" || app === "registry-submitter";
      if (submitter) await system.sim.setFaults(app === "tax-submitter" ? "tax" : "registry", { slowMs: SLOW_AUTHORITY_MS });
      note(`kill -9 ${app}`);
      await system.crash(app, { downMs: 1_000 });
      note(`${app} ready again`);
      if (submitter) await system.sim.clearFaults();
      await calm();
    }
    note("broker stop_app");
    try {
      await stopBroker();
      await new Promise((resolve) => setTimeout(resolve, BROKER_DOWN_MS));
    } finally {
      await startBroker();
      note("broker back");
    }
    await calm();
    note(`tax authority: ${AUTHORITY_ERROR_RATE * 100} % errors`);
    await system.sim.setFaults("tax", { errorRate: AUTHORITY_ERROR_RATE });
    await new Promise((resolve) => setTimeout(resolve, AUTHORITY_ERRORS_MS));
    await system.sim.clearFaults();
    note("tax authority: errors over");
    await calm();
    return log;
  }

  it("ends every filing accepted, sent and charged once, with its documents and webhooks; healthy afterwards, nothing parked", async () => {
    const started = Date.now();
    const account = await system.createAccount({ balancePence: OPENING_PENCE, name: "fault run" });
    const client: ApiClient = system.client(account.liveKey);
    const listener = await WebhookListener.start();
    try {
      const endpoint = await client.request("POST", "/webhook_endpoints", { body: { url: listener.url } });
      expect(endpoint.status).toBe(201);
      const sinceSeq = await system.sim.lastSeq();
      // Companies both authorities accept (the split 16-month CT600 among them), each round a day earlier.
      const filings = mixedFilings(MAX_FILINGS).filter((filing) => filing.expected.status === "accepted");
      const faults = runFaults();
      const submits = await submitSteadily(client, filings, {
        ratePerSecond: RATE_PER_SECOND,
        keyPrefix: "faultrun",
        until: faults,
        deadlineMs: 300_000,
      });
      const log = await faults;
      const facts = await collectBurstFacts(system, client, submits, {
        accountId: account.accountId,
        openingPence: OPENING_PENCE,
        sinceSeq,
        timeoutMs: 360_000,
      });
      const context = `${submits.length} filings; faults:\n${log.join("\n")}`;
      expect(submits.length, context).toBeGreaterThan(100);

      // The core: every filing accepted, each part at its authority once, each charged once, reconcile clean.
      expectNoLossNoDuplicate(facts, submits.length);
      const notAccepted = [...facts.filings.values()].filter((filing) => filing.status !== "accepted");
      expect(
        notAccepted.map((filing) => `${filing.filing_id} ${filing.filing_type} ${filing.status} ${filing.error?.code ?? ""}`),
        context,
      ).toEqual([]);

      // Around each acceptance: its documents, its filing.accepted and exactly one filing.documents_ready event.
      const accepted = [...facts.filings.values()];
      const missing = async (): Promise<string[]> => {
        const problems: string[] = [];
        for (const filing of accepted) {
          const id = filing.filing_id;
          const listed = await client.listDocuments(id);
          const types = (listed.data?.documents ?? []).map((document) => document.type).sort();
          const expected = expectedDocuments(filing).sort();
          if (listed.status !== 200 || JSON.stringify(types) !== JSON.stringify(expected))
            problems.push(
              `${id} (${filing.filing_type}): documents ${listed.status} [${types.join(", ")}], expected [${expected.join(", ")}]`,
            );
          if (eventIds(listener, "filing.accepted", id).size !== 1)
            problems.push(`${id}: ${eventIds(listener, "filing.accepted", id).size} filing.accepted events`);
          if (eventIds(listener, "filing.documents_ready", id).size !== 1)
            problems.push(`${id}: ${eventIds(listener, "filing.documents_ready", id).size} filing.documents_ready events`);
        }
        return problems;
      };
      const patience = Date.now() + 120_000;
      let problems = await missing();
      while (problems.length > 0 && Date.now() < patience) {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        problems = await missing();
      }
      expect(problems, context).toEqual([]);

      // The operator's view: healthy, every app ready, no breaker open, every dead-letter queue empty.
      let status = await adminStatus(system);
      const breakerPatience = Date.now() + 60_000;
      const onlyBreakers = (report: AdminStatusReport) =>
        report.problems.length > 0 && report.problems.every((problem) => problem.startsWith("breaker "));
      while (onlyBreakers(status.report) && Date.now() < breakerPatience) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        status = await adminStatus(system);
      }
      expect(status.report.problems, context).toEqual([]);
      expect(status.code).toBe(0);
      expect(status.report.healthy).toBe(true);
      expect(status.report.apps.every((app) => app.status === "ready")).toBe(true);
      const deadLetters = deadLetterQueues(status.report);
      expect(deadLetters.length).toBeGreaterThan(0);
      expect(deadLetters.filter((queue) => queue.messages > 0)).toEqual([]);
      for (const app of Object.values(system.apps)) expect(app.running, app.name).toBe(true);
      console.info(`fault run: ${submits.length} filings, ${Math.round((Date.now() - started) / 1000)} s\n${log.join("\n")}`);
    } finally {
      await listener.close();
    }
  }, 900_000);
});
