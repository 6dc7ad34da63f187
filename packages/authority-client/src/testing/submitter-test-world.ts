import { connectBus, type Bus, type HandlerMap } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, PLATFORM_TOPOLOGY, SUBMISSION_RPC_CATALOG } from "@dormant/contracts";
import { createLogger, type Logger } from "@dormant/service-kit";
import { createTestRedisPrefix, createTestVhost, type TestRedis, type TestVhost } from "@dormant/testing";
import { simControl, type SimControl } from "./sim-control.ts";

/** The filing service's side of the bus: calls the submit RPCs, consumes `filing.outcomes`. */
export type FilingSideBus = Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof SUBMISSION_RPC_CATALOG>;

/** What the world needs of the authority simulator (`startTestSim` of @dormant/authority-sim/testing). */
export interface TestSim {
  urls: { control: string };
  close(): Promise<void>;
}

/** What the world needs of amqplib's `connect`: a queue's depth. */
export type AmqpConnect = (url: string) => Promise<{
  createChannel(): Promise<{ checkQueue(queue: string): Promise<{ messageCount: number }> }>;
  close(): Promise<void>;
}>;

export interface SubmitterTestWorldOptions<S extends TestSim> {
  /** Names the vhost and the Redis prefix. */
  label: string;
  /** Names the test logger ("tax-submitter-test"). */
  service: string;
  startSim(): Promise<S>;
  /** Whose log `received` lists ("tax", "registry"). */
  target: string;
  /** What the filing side does with each message on `filing.outcomes` (collects its worker's). */
  outcomes: HandlerMap<typeof PLATFORM_MESSAGE_CATALOG, "filing.outcomes">;
  connect: AmqpConnect;
}

/**
 * One submitter test file's world: its own vhost, Redis prefix and simulator (fast timing),
 * workers started against them, and a "filing service" side that calls the submit RPCs and
 * collects what arrives on `filing.outcomes`.
 */
export interface SubmitterTestWorld<S extends TestSim, E> extends SimControl<E> {
  sim: S;
  vhost: TestVhost;
  redis: TestRedis;
  filingBus: FilingSideBus;
  logger: Logger;
  /** The environment a test worker starts with: the world's infrastructure, fast timing, then `own` over it. */
  env(own: Record<string, string>): Record<string, string>;
  /** Starts a worker (closed by teardown). */
  startWorker<W extends { close(): Promise<void> }>(start: () => Promise<W>): Promise<W>;
  /** Messages waiting in a queue of the vhost. */
  queueDepth(queue: string): Promise<number>;
  teardown(): Promise<void>;
}

export async function submitterTestWorld<S extends TestSim, E>(options: SubmitterTestWorldOptions<S>): Promise<SubmitterTestWorld<S, E>> {
  const vhost = await createTestVhost(options.label);
  const redis = createTestRedisPrefix(options.label);
  const sim = await options.startSim();
  const logger = createLogger({ service: options.service });
  const workers: { close(): Promise<void> }[] = [];

  const filingBus: FilingSideBus = await connectBus({
    url: vhost.url,
    service: "filing-test",
    topology: PLATFORM_TOPOLOGY,
    messages: PLATFORM_MESSAGE_CATALOG,
    rpc: SUBMISSION_RPC_CATALOG,
    logger,
    reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
  });
  await filingBus.consume("filing.outcomes", options.outcomes);

  return {
    sim,
    vhost,
    redis,
    filingBus,
    logger,
    ...simControl<E>(sim.urls.control, options.target),
    env: (own) => ({
      NODE_ENV: "test",
      AMQP_URL: vhost.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
      OPS_PORT: "0",
      OPS_HOST: "127.0.0.1",
      AUTHORITY_TIMEOUT_MS: "15000",
      BREAKER_VOLUME_THRESHOLD: "1000",
      BREAKER_RESET_TIMEOUT_MS: "2000",
      // Long enough for the simulator's business-rules check to answer a poll on a busy machine
      // (each is an xsltproc run, queued behind the others), short enough for a give-up test.
      POLL_GIVE_UP_AFTER_SECONDS: "10",
      IN_DOUBT_SETTLE_SECONDS: "1",
      ...own,
    }),
    async startWorker(start) {
      const worker = await start();
      workers.push(worker);
      return worker;
    },
    async queueDepth(queue) {
      const model = await options.connect(vhost.url);
      try {
        const channel = await model.createChannel();
        return (await channel.checkQueue(queue)).messageCount;
      } finally {
        await model.close();
      }
    },
    async teardown() {
      await Promise.all(workers.splice(0).map((worker) => worker.close().catch(() => undefined)));
      await filingBus.close().catch(() => undefined);
      await sim.close();
      await redis.cleanup();
      await vhost.delete();
    },
  };
}
