import { MAX_WEBHOOK_ENDPOINTS_PER_MODE, type WebhookEndpointWithSecret } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../harness/api-client.ts";
import { ct600Body, TABLE_COMPANIES } from "../harness/companies.ts";
import { SilentListener } from "../harness/silent-listener.ts";
import type { RunningSystem } from "../harness/system.ts";
import { waitForFinal } from "../harness/wait-final.ts";
import { register, verified } from "../harness/webhook-endpoints.ts";
import { WebhookListener } from "../harness/webhook-listener.ts";

// Issue 28 §1 end to end: one account's silent webhook endpoints cannot stall another account's
// webhooks. The notifier runs with its defaults (apps/notifier README, "Configuration"):
const ACCOUNT_LIMIT = 8; // WEBHOOK_ACCOUNT_CONCURRENCY: attempts in flight per account and mode
const HOST_LIMIT = 16; // WEBHOOK_HOST_CONCURRENCY: attempts in flight per destination host and mode
const ENDPOINT_LIMIT = 4; // WEBHOOK_ENDPOINT_CONCURRENCY
const TEST_PREFETCH = 8; // NOTIFIER_TEST_DELIVERIES_PREFETCH (one notifier: at most this many test attempts)
// NOTIFIER_DELIVERIES_PREFETCH is 32: the live consumer's slots.
// An attempt to a silent endpoint holds its slot for WEBHOOK_TIMEOUT_MS, 10 s, then retries.
//
// The design: three noisy accounts, each with as many endpoints as it may have in each mode
// (MAX_WEBHOOK_ENDPOINTS_PER_MODE, 10 test and 10 live: 20 silent endpoints per account, 60 in
// all), every one at one silent host (127.0.0.2: a host name of its own; the victim's listener
// is at 127.0.0.1). Three accounts, because the host limit only binds above two accounts' worth
// of attempts (2 x 8 = 16). They fill both delivery queues:
// - test mode: bursts of sandbox submits (00000001: filing.accepted and filing.documents_ready
//   to 10 endpoints, 200 deliveries per account and burst), one before the victim files and one
//   while it does. Test deliveries have a queue and consumer of their own; on the live queue
//   they would take 16 of its 32 slots (the test host limit) on top of the live noise below:
//   all of them (checked by hand: the victim's webhooks then did not come at all).
// - live mode: 3 "Send test" per live endpoint (90 deliveries, up to 4 at once per endpoint:
//   far more than the live consumer's 32 slots could hang). Three accounts of 8 attempts each
//   could hold 24; the host limit holds them to 16, so the consumer always has 16 slots for other
//   accounts (checked by hand: with both limits at 1000 the victim's webhooks did not come).
// Meanwhile a victim account with a live key and one answering endpoint files CT600s that the
// authorities accept: each filing.accepted must reach it within 10 s of acceptance, as in the
// webhooks suite. Registered last in the shared system: at the end the noisy endpoints are
// deleted (their pending deliveries cancelled) and then the silent listener is closed, so that
// the attempts it still holds fail at once and nothing is retried.
const NOISY_ACCOUNTS = 3;
const SEND_TESTS_PER_LIVE_ENDPOINT = 3;
const SANDBOX_SUBMITS_PER_BURST = 10; // per noisy account
const VICTIM_FILINGS = TABLE_COMPANIES.filter((company) => company.ct600.status === "accepted").slice(0, 3);
const WEBHOOK_BOUND_MS = 10_000;

interface NoisyAccount {
  name: string;
  live: ApiClient;
  sandbox: ApiClient;
  liveEndpoints: WebhookEndpointWithSecret[];
  testEndpoints: WebhookEndpointWithSecret[];
}

/** A burst of sandbox submits of 00000001 (accepted: two events each) by every noisy account. */
async function sandboxBurst(noisy: readonly NoisyAccount[], burst: string): Promise<void> {
  const answers = await Promise.all(
    noisy.flatMap((account) =>
      Array.from({ length: SANDBOX_SUBMITS_PER_BURST }, (_, i) =>
        account.sandbox.submit("ct600", ct600Body("00000001", "2026-03-31"), `fairness-${burst}-${account.name}-${i}`),
      ),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
}

export function webhookFairnessSuite(shared: () => RunningSystem): void {
  describe("webhook fairness: one account's silent endpoints do not stall another account's webhooks", () => {
    let system: RunningSystem;
    let silent: SilentListener;
    let listener: WebhookListener;
    let victim: ApiClient;
    let victimEndpoint: WebhookEndpointWithSecret;
    const noisy: NoisyAccount[] = [];

    beforeAll(async () => {
      system = shared();
      silent = await SilentListener.start("127.0.0.2");
      listener = await WebhookListener.start();
      const victimAccount = await system.createAccount({ name: "Victim Agency Ltd", balancePence: 100_000 });
      victim = system.client(victimAccount.liveKey);
      victimEndpoint = await register(victim, listener.url, ["filing.accepted"]);
      await Promise.all(
        Array.from({ length: NOISY_ACCOUNTS }, async (_, index) => {
          const name = `n${index + 1}`;
          const account = await system.createAccount({ name: `Noisy Agency ${name} Ltd`, balancePence: 1_000 });
          const live = system.client(account.liveKey);
          const sandbox = system.client(account.testKey);
          const endpoints = async (client: ApiClient, mode: string) => {
            const created: WebhookEndpointWithSecret[] = [];
            for (let e = 0; e < MAX_WEBHOOK_ENDPOINTS_PER_MODE; e++)
              created.push(await register(client, `${silent.baseUrl}/${mode}/${name}/e${e}`));
            return created;
          };
          const [liveEndpoints, testEndpoints] = await Promise.all([endpoints(live, "live"), endpoints(sandbox, "test")]);
          noisy.push({ name, live, sandbox, liveEndpoints, testEndpoints });
        }),
      );
    }, 120_000);

    afterAll(async () => {
      const report = system?.crashReport();
      await silent?.close();
      await listener?.close();
      if (report) throw new Error(report);
    });

    it(`an account has at most ${MAX_WEBHOOK_ENDPOINTS_PER_MODE} endpoints per mode: one more is 400 VALIDATION_ERROR on url`, async () => {
      const [first] = noisy;
      for (const client of [first!.live, first!.sandbox]) {
        const refused = await client.request("POST", "/webhook_endpoints", { body: { url: `${silent.baseUrl}/over-the-cap` } });
        expect(refused.status).toBe(400);
        expect(refused.error).toMatchObject({
          code: "VALIDATION_ERROR",
          details: [{ field: "url", message: expect.stringContaining("endpoint limit reached") }],
        });
      }
    });

    it("another account's live filing.accepted webhooks arrive within 10 s of acceptance while 60 silent endpoints are flooded", async () => {
      // The noise: live "Send test"s and a first sandbox burst, until the silent host holds as
      // many attempts as the limits let it in each mode.
      await Promise.all([
        ...noisy.flatMap((account) =>
          account.liveEndpoints.flatMap((endpoint) =>
            Array.from({ length: SEND_TESTS_PER_LIVE_ENDPOINT }, async () => {
              expect((await account.live.request("POST", `/webhook_endpoints/${endpoint.id}/test`)).status).toBe(202);
            }),
          ),
        ),
        sandboxBurst(noisy, "1"),
      ]);
      await expect
        .poll(() => silent.inFlight("/live/") >= HOST_LIMIT && silent.inFlight("/test/") >= TEST_PREFETCH, {
          timeout: 15_000,
          interval: 100,
          message: `the silent host holding ${HOST_LIMIT} live and ${TEST_PREFETCH} test attempts (the limits)`,
        })
        .toBe(true);

      // The victim files while a second burst comes in.
      const started = Date.now();
      const [submitted] = await Promise.all([
        Promise.all(
          VICTIM_FILINGS.map((company) =>
            victim.submit("ct600", ct600Body(company.number, company.ct600PeriodEnd), `fairness-victim-${company.number}`),
          ),
        ),
        sandboxBurst(noisy, "2"),
      ]);
      for (const answer of submitted) expect(answer.status, JSON.stringify(answer.error)).toBe(202);
      const filingIds = submitted.map((answer) => answer.data!.filing_id);
      const finals = await Promise.all(filingIds.map((id) => waitForFinal(victim, id, { timeoutMs: 60_000, intervalMs: 500 })));
      for (const final of finals) expect(final.status).toBe("accepted");

      const latencies: Array<{ filingId: string; ms: number; silentLive: number; silentTest: number }> = [];
      for (const filingId of filingIds) {
        await expect
          .poll(() => listener.ofType("filing.accepted", filingId).length, {
            timeout: 20_000,
            interval: 100,
            message: `filing.accepted of ${filingId} at the victim's endpoint`,
          })
          .toBe(1);
        const hook = listener.ofType("filing.accepted", filingId)[0]!;
        const event = verified(victimEndpoint.secret, hook);
        expect(event.data).toMatchObject({ filing_id: filingId, status: "accepted" });
        latencies.push({
          filingId,
          ms: hook.receivedAt - Date.parse(event.data.updated_at),
          silentLive: silent.inFlight("/live/", hook.receivedAt),
          silentTest: silent.inFlight("/test/", hook.receivedAt),
        });
      }
      const ended = Math.max(...listener.received.map((hook) => hook.receivedAt));
      console.info(
        `webhook fairness: victim filing.accepted after acceptance: ${latencies
          .map((l) => `${l.ms} ms (silent host holding ${l.silentLive} live, ${l.silentTest} test attempts)`)
          .join("; ")}; ${silent.held.length} silent attempts so far`,
      );
      for (const latency of latencies) expect(latency.ms, latency.filingId).toBeLessThan(WEBHOOK_BOUND_MS);

      // The noise was at its limits while the victim filed, and never over them (as the silent host saw it).
      expect(silent.peakInFlight("/live/", started, ended)).toBe(HOST_LIMIT);
      expect(silent.peakInFlight("/test/", started, ended)).toBe(TEST_PREFETCH);
      expect(silent.peakInFlight("/live/")).toBeLessThanOrEqual(HOST_LIMIT);
      expect(silent.peakInFlight("/test/")).toBeLessThanOrEqual(TEST_PREFETCH);
      for (const account of noisy) {
        expect(silent.peakInFlight(`/live/${account.name}/`)).toBeLessThanOrEqual(ACCOUNT_LIMIT);
        expect(silent.peakInFlight(`/test/${account.name}/`)).toBeLessThanOrEqual(ACCOUNT_LIMIT);
        for (const endpoint of account.liveEndpoints) {
          expect(silent.peakInFlight(new URL(endpoint.url).pathname)).toBeLessThanOrEqual(ENDPOINT_LIMIT);
        }
      }
    }, 120_000);

    // Last: the noisy endpoints are deleted while the silent host still holds their attempts
    // (their pending deliveries are cancelled). Recording an attempt and deleting its endpoint
    // once took their rows in opposite orders and deadlocked (Postgres 40P01, a 500 here).
    it("deletes every noisy endpoint while attempts to it are in flight: 200 each", async () => {
      const failed: string[] = [];
      for (const account of noisy) {
        for (const [client, endpoint] of [
          ...account.liveEndpoints.map((endpoint) => [account.live, endpoint] as const),
          ...account.testEndpoints.map((endpoint) => [account.sandbox, endpoint] as const),
        ]) {
          const deleted = await client.request("DELETE", `/webhook_endpoints/${endpoint.id}`);
          if (deleted.status !== 200) failed.push(`${endpoint.id}: ${deleted.status} ${deleted.error?.code ?? ""}`);
        }
      }
      expect(failed).toEqual([]);
    }, 60_000);
  });
}
