import { createServer, type AddressInfo, type Server } from "node:net";
import { connectBus, RpcNoServerError } from "@dormant/bus";
import {
  DEVELOPMENT_SEALING_KEY,
  PLATFORM_MESSAGE_CATALOG,
  REGISTRY_POLL_QUEUE,
  REGISTRY_SUBMIT_QUEUE,
  SUBMISSION_RPC_CATALOG,
  SubmitRegistryAccountsResponse,
  sealSecret,
  sealingKeyFromBase64,
  type PollRegistryStatusCommand,
  type SubmitRegistryAccountsRequest,
  PLATFORM_TOPOLOGY,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, createTestVhost, waitFor, type TestRedis, type TestVhost } from "@dormant/testing";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthorityUnavailableError } from "./errors.ts";
import {
  startSubmitterWorker,
  type SubmitterBus,
  type SubmitterWorker,
  type SubmitterWorkerConfig,
  type SubmitterWorkerHandlers,
  type SubmitterWorkerParts,
} from "./submitter-worker.ts";

const SERVICE = "test-submitter";
const logger = createLogger({ service: "authority-client-test", level: "silent" });
const devKey = sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64);

let vhost: TestVhost;
let testRedis: TestRedis;
let redis: Redis;
let client: SubmitterBus;
const workers: SubmitterWorker[] = [];

beforeAll(async () => {
  vhost = await createTestVhost("submitter-worker");
  testRedis = createTestRedisPrefix("submitter-worker");
  redis = new Redis(testRedis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  client = await connectBus({
    url: vhost.url,
    service: "filing-test",
    topology: PLATFORM_TOPOLOGY,
    messages: PLATFORM_MESSAGE_CATALOG,
    rpc: SUBMISSION_RPC_CATALOG,
    logger,
  });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close().catch(() => undefined)));
});
afterAll(async () => {
  await client.close().catch(() => undefined);
  redis.disconnect();
  await testRedis.cleanup();
  await vhost.delete();
});

function config(overrides: Partial<SubmitterWorkerConfig> = {}): SubmitterWorkerConfig {
  return {
    amqpUrl: vhost.url,
    redisUrl: testRedis.url,
    redisKeyPrefix: testRedis.prefix,
    ops: { port: 0, host: "127.0.0.1" },
    breaker: { timeoutMs: 5_000, errorThresholdPercentage: 50, volumeThreshold: 5, rollingWindowMs: 10_000, resetTimeoutMs: 30_000 },
    limits: { maxConcurrent: 64, maxPerSecond: 100 },
    sealingKeys: [devKey],
    pollPrefetch: 16,
    submitPrefetch: 8,
    submitDedupeTtlSeconds: 60,
    completionTtlSeconds: 60,
    ...overrides,
  };
}

type Parts = SubmitterWorkerParts<"submission" | "status", SubmitRegistryAccountsResponse>;
type Handlers = SubmitterWorkerHandlers<typeof REGISTRY_POLL_QUEUE, typeof REGISTRY_SUBMIT_QUEUE>;

/** Starts a worker on the registry queues whose handlers the test supplies (closed after each test). */
async function start(handlers: (parts: Parts) => Handlers, overrides: Partial<SubmitterWorkerConfig> = {}): Promise<SubmitterWorker> {
  const worker = await startSubmitterWorker({
    service: SERVICE,
    authority: "registry",
    config: config(overrides),
    logger,
    breakers: { submission: "test-submission", status: "test-status" },
    counters: { submissions: "test_submissions_total", outcomes: "test_outcomes_total", outcomesHelp: "Final test outcomes published" },
    submitResponse: SubmitRegistryAccountsResponse,
    pollQueue: REGISTRY_POLL_QUEUE,
    submitQueue: REGISTRY_SUBMIT_QUEUE,
    handlers,
  });
  workers.push(worker);
  return worker;
}

let nextNumber = 0;
function submissionNumber(): string {
  nextNumber += 1;
  return `T${String(nextNumber).padStart(5, "0")}`;
}

function submitRequest(number: string): SubmitRegistryAccountsRequest {
  const filingId = `fil_worker${number}`;
  return {
    filing_id: filingId,
    company: { number: "00000001", name: "Lovelace Engines Limited", registry_company_type: "EW" },
    submission_number: number,
    date_signed: "2026-04-01",
    ixbrl_base64: "PGh0bWwvPg==",
    document_filename: "accounts.html",
    credentials: sealSecret({ company_auth_code: "ABC123" }, devKey, `submission:${filingId}:1`),
  };
}

function pollCommand(number: string): PollRegistryStatusCommand {
  return {
    filing_id: `fil_worker${number}`,
    submission_number: number,
    company_number: "00000001",
    poll_interval_seconds: 1,
    give_up_at: new Date(Date.now() + 60_000).toISOString(),
    poll_number: 1,
  };
}

const opsUrl = (worker: SubmitterWorker, path: string) => `http://127.0.0.1:${(worker.ops.address() as AddressInfo).port}${path}`;

/** A promise the test resolves when it chooses. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/** The resolve RPC, which these tests never call. */
const notResolving = async (): Promise<never> => {
  throw new Error("not used by this test");
};

describe("startSubmitterWorker", () => {
  it("serves the submit RPC and consumes the poll queue, with the service's records, breakers, counters and ops endpoints", async () => {
    const polled: string[] = [];
    let given: Parts | undefined;
    const worker = await start((parts) => {
      given = parts;
      return {
        poll: {
          "registry.poll_status": async (message) => {
            await parts.polling.completions.markCompleted(message.payload.submission_number, "accepted");
            polled.push(message.payload.submission_number);
          },
        },
        submit: {
          "registry.submit_accounts": async (request) => {
            const claim = await parts.submitting.ledger.claim(request.submission_number);
            expect(claim.claimed).toBe(true);
            return { submission_number: request.submission_number, submitted_at: new Date().toISOString() };
          },
          "registry.resolve_accounts": notResolving,
        },
      };
    });

    const number = submissionNumber();
    const answer = await client.rpcCall(REGISTRY_SUBMIT_QUEUE, "registry.submit_accounts", submitRequest(number));
    expect(answer.submission_number).toBe(number);
    await client.publish("registry.poll_status", pollCommand(number));
    await waitFor(() => polled.includes(number), { what: "the poll handled" });

    // The records live under `<prefix><service>:submit:` and `<prefix><service>:done:`.
    expect(await redis.exists(`${testRedis.prefix}${SERVICE}:submit:${number}`)).toBe(1);
    expect(await redis.exists(`${testRedis.prefix}${SERVICE}:done:${number}`)).toBe(1);

    // What the handlers were built from.
    expect(Object.keys(given?.breakers ?? {})).toEqual(["submission", "status"]);
    expect(given?.polling.requestTimeoutMs).toBe(5_000);
    expect(given?.polling.breakerResetTimeoutMs).toBe(30_000);
    expect(given?.submitting.maxPollDelayMs).toBe(15 * 60 * 1000); // the longest wait tier of registry.poll
    expect(given?.polling.maxPollDelayMs).toBe(given?.submitting.maxPollDelayMs);
    expect(given?.submitting.sealingKeys).toEqual([devKey]);

    const ready = await fetch(opsUrl(worker, "/readyz"));
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks).toEqual({ bus: "ok", redis: "ok" });
    const metrics = await (await fetch(opsUrl(worker, "/metrics"))).text();
    expect(metrics).toContain('authority_breaker_state{breaker="test-submission",service="test-submitter"} 0');
    expect(metrics).toContain('authority_breaker_state{breaker="test-status",service="test-submitter"} 0');
    expect(metrics).toContain("# HELP test_submissions_total Submit RPCs answered, by result (acknowledged, duplicate, or the error code)");
    expect(metrics).toContain("# HELP test_outcomes_total Final test outcomes published");
  });

  it("works at most pollPrefetch polls at once, and close() lets the ones in flight finish before it closes", async () => {
    const started: string[] = [];
    const events: string[] = [];
    const release = gate();
    const worker = await start(
      ({ polling }) => ({
        poll: {
          "registry.poll_status": async (message) => {
            const number = message.payload.submission_number;
            started.push(number);
            await release.wait;
            // Work after the stop began still has Redis (and the bus) to finish with.
            await polling.completions.markCompleted(number, "accepted");
            events.push(`finished ${number}`);
          },
        },
        submit: {
          "registry.submit_accounts": async () => ({ submission_number: "X", submitted_at: new Date().toISOString() }),
          "registry.resolve_accounts": notResolving,
        },
      }),
      { pollPrefetch: 2 },
    );

    for (let i = 0; i < 3; i += 1) await client.publish("registry.poll_status", pollCommand(submissionNumber()));
    await waitFor(() => started.length === 2, { what: "two polls in flight" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started).toHaveLength(2);

    const closing = worker.close().then(() => void events.push("closed"));
    const stopping = await fetch(opsUrl(worker, "/readyz"));
    expect(stopping.status).toBe(503);
    expect(((await stopping.json()) as { checks: Record<string, string> }).checks.shutdown).toBe("shutting down");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual([]);

    release.open();
    await closing;
    expect(events).toEqual([...started.map((number) => `finished ${number}`), "closed"]);
    for (const number of started) expect(await redis.exists(`${testRedis.prefix}${SERVICE}:done:${number}`)).toBe(1);
    expect(started).toHaveLength(2);
    expect(worker.ops.listening).toBe(false);
    expect(worker.bus.isConnected()).toBe(false);
  });

  it("closes what it opened when the start-up fails (here: the ops port is taken)", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      await expect(
        start(
          () => ({
            poll: { "registry.poll_status": async () => undefined },
            submit: {
              "registry.submit_accounts": async () => ({ submission_number: "X", submitted_at: new Date().toISOString() }),
              "registry.resolve_accounts": notResolving,
            },
          }),
          { ops: { port, host: "127.0.0.1" } },
        ),
      ).rejects.toThrow(/EADDRINUSE/);
      // The RPC server it had started is gone with its bus: nothing serves the submit queue.
      await expect(
        client.rpcCall(REGISTRY_SUBMIT_QUEUE, "registry.submit_accounts", submitRequest(submissionNumber()), { timeoutMs: 5_000 }),
      ).rejects.toBeInstanceOf(RpcNoServerError);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it("shares the breakers' state and the limits toward the authority with its other replicas", async () => {
    const breakersOf: Array<Parts["breakers"]> = [];
    const handlers = (parts: Parts): Handlers => {
      breakersOf.push(parts.breakers);
      return {
        poll: { "registry.poll_status": async () => undefined },
        submit: { "registry.submit_accounts": notResolving, "registry.resolve_accounts": notResolving },
      };
    };
    const limits = { maxConcurrent: 1, maxPerSecond: 100 };
    await start(handlers, { limits });
    const b = await start(handlers, { limits });
    const [onA, onB] = [breakersOf[0]!, breakersOf[1]!];

    // One slot for the authority across both replicas: while a holds it, b's call waits, then gives up unsent.
    const held = gate();
    const holding = onA.status.run(() => held.wait);
    const refused = await onB.status.run(async () => "sent", { timeoutMs: 300 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthorityUnavailableError);
    expect(refused).toMatchObject({ reason: "throttled", maybeReceived: false });
    held.open();
    await holding;
    expect(await onB.status.run(async () => "sent")).toBe("sent");

    // a's breaker opens on its own failures (volume threshold 5); b's follows within a second, without a failure of its own.
    const down = () => Promise.reject(new AuthorityUnavailableError("http_status", "down", { maybeReceived: false }));
    while (onA.submission.state !== "open") await onA.submission.run(down).catch(() => undefined);
    const openedAt = Date.now();
    await waitFor(() => onB.submission.state === "open", { timeoutMs: 1_000, intervalMs: 10, what: "b's breaker open" });
    expect(Date.now() - openedAt).toBeLessThan(1_000);
    expect(await onB.submission.run(async () => "sent").catch((error: unknown) => error)).toMatchObject({ reason: "breaker_open" });
    const metricsOfB = await (await fetch(opsUrl(b, "/metrics"))).text();
    expect(metricsOfB).toMatch(/authority_breaker_shared_events_total\{[^}]*breaker="test-submission"[^}]*event="opened_by_peer"[^}]*\} 1/);
    expect(metricsOfB).not.toMatch(/authority_breaker_failures_total\{[^}]*breaker="test-submission"/);
    expect(metricsOfB).toMatch(/authority_limit_refused_total\{[^}]*authority="registry"[^}]*cause="deadline"[^}]*\} 1/);
    await redis.del(`${testRedis.prefix}breakers:test-submission:open`);
  });
});
