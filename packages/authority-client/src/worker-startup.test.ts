import {
  DEVELOPMENT_SEALING_KEY,
  REGISTRY_POLL_QUEUE,
  REGISTRY_SUBMIT_QUEUE,
  SubmitRegistryAccountsResponse,
  sealingKeyFromBase64,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import {
  createDelayedTcpProxy,
  createTestRedisPrefix,
  createTestVhost,
  type DelayedTcpProxy,
  getFreePort,
  type TestRedis,
  type TestVhost,
  waitFor,
} from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSubmitterWorker, type SubmitterWorker } from "./submitter-worker.ts";

const logger = createLogger({ service: "worker-startup-test", level: "silent" });
const devKey = sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64);

/**
 * A submitter worker whose Redis and RabbitMQ are unreachable at start-up keeps retrying with its
 * ops endpoints up (/healthz 200, /readyz 503 naming the dependency), and serves once they answer.
 */
describe("a submitter worker at start-up", () => {
  let vhost: TestVhost;
  let testRedis: TestRedis;
  let redisProxy: DelayedTcpProxy;
  let rabbitmq: DelayedTcpProxy;
  let worker: SubmitterWorker | undefined;

  beforeAll(async () => {
    vhost = await createTestVhost("worker-startup");
    testRedis = createTestRedisPrefix("worker-startup");
    redisProxy = await createDelayedTcpProxy({ port: Number(new URL(testRedis.url).port || 6379) });
    rabbitmq = await createDelayedTcpProxy({ port: Number(new URL(vhost.url).port || 5672) });
  });
  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await Promise.all([redisProxy?.close(), rabbitmq?.close()]);
    await testRedis?.cleanup();
    await vhost?.delete();
  });

  it("is live and not ready until Redis and RabbitMQ answer, then ready", async () => {
    const opsPort = await getFreePort();
    const starting = startSubmitterWorker({
      service: "startup-submitter",
      authority: "registry",
      config: {
        amqpUrl: rabbitmq.url(vhost.url),
        redisUrl: redisProxy.url(testRedis.url),
        redisKeyPrefix: testRedis.prefix,
        ops: { port: opsPort, host: "127.0.0.1" },
        breaker: { timeoutMs: 5_000, errorThresholdPercentage: 50, volumeThreshold: 5, rollingWindowMs: 10_000, resetTimeoutMs: 30_000 },
        limits: { maxConcurrent: 64, maxPerSecond: 100 },
        sealingKeys: [devKey],
        pollPrefetch: 4,
        submitPrefetch: 4,
        submitDedupeTtlSeconds: 60,
        completionTtlSeconds: 60,
      },
      logger,
      breakers: { submission: "startup-submission", status: "startup-status" },
      counters: { submissions: "startup_submissions_total", outcomes: "startup_outcomes_total", outcomesHelp: "outcomes" },
      submitResponse: SubmitRegistryAccountsResponse,
      pollQueue: REGISTRY_POLL_QUEUE,
      submitQueue: REGISTRY_SUBMIT_QUEUE,
      handlers: () => ({
        poll: { "registry.poll_status": async () => undefined },
        submit: {
          "registry.submit_accounts": async () => {
            throw new Error("not used");
          },
          "registry.resolve_accounts": async () => {
            throw new Error("not used");
          },
          "registry.check_accounts": async () => {
            throw new Error("not used");
          },
        },
      }),
    });
    let settled = false;
    void starting.then(
      (started) => {
        worker = started;
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    const ops = (path: string) => fetch(`http://127.0.0.1:${opsPort}${path}`);
    const waitingFor = (dependency: string) =>
      waitFor(
        async () => {
          const response = await ops("/readyz");
          const body = (await response.json()) as { checks: Record<string, string> };
          return response.status === 503 && body.checks.startup?.includes(`waiting for ${dependency}`) ? body : undefined;
        },
        { timeoutMs: 10_000, what: `readiness to name ${dependency}` },
      );

    await waitingFor("redis");
    expect((await ops("/healthz")).status).toBe(200);
    await redisProxy.open();
    await waitingFor("rabbitmq");
    expect(settled).toBe(false);
    await rabbitmq.open();
    await waitFor(async () => (await ops("/readyz")).status === 200, { timeoutMs: 10_000, what: "the worker to be ready" });
    const body = (await (await ops("/readyz")).json()) as { checks: Record<string, string> };
    expect(body.checks).toEqual({ bus: "ok", redis: "ok" });
    await starting;
  }, 30_000);
});
