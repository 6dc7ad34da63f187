import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, getFreePort, rejectionOf, waitFor } from "@dormant/testing";
import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AuthorityBreaker } from "./authority-breaker.ts";
import { AuthorityLimiter, createAuthorityLimitMetrics, type AuthorityLimitSettings } from "./authority-limits.ts";
import { createBreakerMetrics } from "./breaker-metrics.ts";
import type { BreakerSettings } from "./breaker-settings.ts";
import { AuthorityUnavailableError } from "./errors.ts";
import { postXml } from "./post-xml.ts";
import { SharedBreakerBoard } from "./shared-breakers.ts";

/**
 * Three replicas of the authority client in this process, each with its own Redis connections,
 * metrics, limiter, shared-breaker board and breaker (as three tax-submitter processes would have),
 * against real Redis and a real HTTP authority that this test takes down and brings back.
 */

interface Arrival {
  at: number;
  replica: string;
}
let server: Server;
let base: string;
let mode: "up" | "down" = "up";
let answerDelayMs = 0;
let inFlight = 0;
let maxInFlight = 0;
const arrivals: Arrival[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  arrivals.push({ at: Date.now(), replica: req.url?.split("/")[1] ?? "?" });
  inFlight += 1;
  maxInFlight = Math.max(maxInFlight, inFlight);
  res.on("close", () => {
    inFlight -= 1;
  });
  req.resume();
  req.on("end", () => {
    if (mode === "down") {
      res.writeHead(503).end("Service Unavailable");
      return;
    }
    setTimeout(() => res.writeHead(200, { "content-type": "text/xml" }).end("<ok/>"), answerDelayMs);
  });
}

const testRedis = createTestRedisPrefix("shared-limits");
const logger = createLogger({ service: "shared-limits-test", level: "silent" });
const open: Array<{ close(): Promise<void> | void }> = [];

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await testRedis.cleanup();
});
beforeEach(() => {
  arrivals.length = 0;
  maxInFlight = 0;
  mode = "up";
  answerDelayMs = 0;
});

interface Replica {
  name: string;
  breaker: AuthorityBreaker;
  registry: Registry;
  redis: Redis;
  call(): Promise<string>;
  metric(name: string, labels?: Record<string, string>): Promise<number>;
}

/** One replica as startSubmitterWorker builds it: its own connection, limiter, board and breaker. */
async function replica(
  name: string,
  scope: string,
  settings: BreakerSettings,
  limits: AuthorityLimitSettings,
  { redisUrl = testRedis.url, leaseMs = settings.timeoutMs + 5_000 }: { redisUrl?: string; leaseMs?: number } = {},
): Promise<Replica> {
  const redis = new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", () => undefined);
  const registry = new Registry();
  const limiter = new AuthorityLimiter({
    redis,
    keyPrefix: `${testRedis.prefix}${scope}:authority:tax:`,
    authority: "tax",
    settings: limits,
    leaseMs,
    metrics: createAuthorityLimitMetrics(registry),
  });
  const board = new SharedBreakerBoard({ redis, keyPrefix: `${testRedis.prefix}${scope}:breakers:`, logger, syncIntervalMs: 500 });
  if (redisUrl === testRedis.url) {
    await redis.connect();
    await board.start();
  }
  const breaker = new AuthorityBreaker({
    name: "tax-submission",
    settings,
    metrics: createBreakerMetrics(registry),
    logger,
    limiter,
    shared: board,
  });
  open.push({
    close: async () => {
      breaker.shutdown();
      await board.close();
      redis.disconnect();
    },
  });
  return {
    name,
    breaker,
    registry,
    redis,
    call: () => breaker.run((signal) => postXml(`${base}/${name}`, "<x/>", signal)),
    metric: async (metricName, labels = {}) => {
      const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === metricName);
      const values = (metric?.values ?? []) as Array<{ value: number; labels: Record<string, unknown> }>;
      return values.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l)).reduce((sum, v) => sum + v.value, 0);
    },
  };
}

/** The most requests that arrived within any `windowMs` (sliding over the arrivals). */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("limits toward an authority shared by three replicas (real Redis, real HTTP)", () => {
  it("never more than the cap in flight nor the rate per second across replicas; every call served", async () => {
    const settings: BreakerSettings = {
      timeoutMs: 8_000,
      errorThresholdPercentage: 50,
      volumeThreshold: 5,
      rollingWindowMs: 10_000,
      resetTimeoutMs: 5_000,
    };
    const limits = { maxConcurrent: 3, maxPerSecond: 8 };
    const replicas = await Promise.all(["a", "b", "c"].map((name) => replica(name, "limits", settings, limits)));
    answerDelayMs = 150;
    const started = Date.now();
    // Each replica wants 8 calls at once: 24 in all, 8 times the cap.
    const results = await Promise.all(replicas.flatMap((r) => Array.from({ length: 8 }, () => r.call())));
    const tookMs = Date.now() - started;

    expect(results).toHaveLength(24);
    expect(arrivals).toHaveLength(24);
    expect(maxInFlight).toBe(3);
    expect(
      busiestWindow(
        arrivals.map((a) => a.at),
        1_000,
      ),
    ).toBeLessThanOrEqual(8);
    for (const name of ["a", "b", "c"]) expect(arrivals.filter((a) => a.replica === name)).toHaveLength(8);
    // 24 starts at 8 per second cannot take less than two windows.
    expect(tookMs).toBeGreaterThanOrEqual(2_000);
    const granted = await Promise.all(replicas.map((r) => r.metric("authority_limit_wait_seconds", { result: "granted" })));
    expect(granted.every((sum) => sum > 0)).toBe(true);
  });

  it("a slot held by a replica that died comes back when its lease expires", async () => {
    const settings: BreakerSettings = {
      timeoutMs: 300,
      errorThresholdPercentage: 50,
      volumeThreshold: 5,
      rollingWindowMs: 10_000,
      resetTimeoutMs: 5_000,
    };
    const limits = { maxConcurrent: 1, maxPerSecond: 100 };
    const dying = await replica("dying", "lease", settings, limits, { leaseMs: 1_500 });
    // The dying replica's call hangs (no answer) and the replica dies before it ends: its lease
    // (1.5 s here; the workers' is their timeout + 5 s) is never released.
    answerDelayMs = 60_000;
    void dying.call().catch(() => undefined);
    await waitFor(() => arrivals.length === 1);
    dying.redis.disconnect();
    dying.breaker.shutdown();
    answerDelayMs = 0;
    const survivor = await replica("survivor", "lease", { ...settings, timeoutMs: 8_000 }, limits);
    const started = Date.now();
    await survivor.call();
    const waitedMs = Date.now() - started;
    expect(waitedMs).toBeGreaterThan(1_000);
    expect(waitedMs).toBeLessThan(3_000);
  });

  it("waiting for a slot ends at the call's timeout or the caller's signal, without hot-looping Redis", async () => {
    const settings: BreakerSettings = {
      timeoutMs: 2_000,
      errorThresholdPercentage: 50,
      volumeThreshold: 5,
      rollingWindowMs: 10_000,
      resetTimeoutMs: 5_000,
    };
    const limits = { maxConcurrent: 1, maxPerSecond: 100 };
    const [holder, waiter] = await Promise.all([
      replica("holder", "deadline", settings, limits),
      replica("waiter", "deadline", settings, limits),
    ]);
    answerDelayMs = 1_800;
    const held = holder.call();
    await waitFor(() => arrivals.length === 1);
    const scripts = vi.spyOn(waiter.redis, "evalsha");

    let started = Date.now();
    const timedOut = await rejectionOf(waiter.breaker.run((signal) => postXml(`${base}/waiter`, "<x/>", signal), { timeoutMs: 1_000 }));
    const waitedMs = Date.now() - started;
    expect(timedOut).toBeInstanceOf(AuthorityUnavailableError);
    expect(timedOut).toMatchObject({ reason: "throttled", maybeReceived: false, retryAfterSeconds: 1 });
    expect(waitedMs).toBeGreaterThanOrEqual(950);
    expect(waitedMs).toBeLessThan(1_600);
    // Backoff from 10 to 200 ms: about ten tries in a second, never a busy loop.
    expect(scripts.mock.calls.length).toBeLessThanOrEqual(15);

    started = Date.now();
    const aborted = await rejectionOf(
      waiter.breaker.run((signal) => postXml(`${base}/waiter`, "<x/>", signal), { signal: AbortSignal.timeout(200) }),
    );
    expect(aborted).toMatchObject({ reason: "throttled", maybeReceived: false });
    expect(Date.now() - started).toBeLessThan(600);
    expect(arrivals.filter((a) => a.replica === "waiter")).toHaveLength(0);
    expect(await waiter.metric("authority_limit_refused_total", { cause: "deadline" })).toBe(1);
    expect(await waiter.metric("authority_limit_refused_total", { cause: "aborted" })).toBe(1);
    await held;
  });

  it("fails closed without Redis: nothing is sent", async () => {
    const settings: BreakerSettings = {
      timeoutMs: 1_000,
      errorThresholdPercentage: 50,
      volumeThreshold: 5,
      rollingWindowMs: 10_000,
      resetTimeoutMs: 5_000,
    };
    const cut = await replica(
      "cut",
      "no-redis",
      settings,
      { maxConcurrent: 10, maxPerSecond: 10 },
      {
        redisUrl: `redis://127.0.0.1:${await getFreePort()}`,
      },
    );
    const error = await rejectionOf(cut.call());
    expect(error).toMatchObject({ reason: "throttled", maybeReceived: false });
    expect(arrivals).toHaveLength(0);
    expect(await cut.metric("authority_limit_refused_total", { cause: "redis_unavailable" })).toBe(1);
  });
});

describe("breaker state shared by three replicas: the authority down, then back", () => {
  it("without Redis each replica's breaker still opens, sends its own trial and closes", async () => {
    const redis = new Redis(`redis://127.0.0.1:${await getFreePort()}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    redis.on("error", () => undefined);
    const board = new SharedBreakerBoard({ redis, keyPrefix: `${testRedis.prefix}cut:breakers:`, logger });
    const settings: BreakerSettings = {
      timeoutMs: 1_000,
      errorThresholdPercentage: 50,
      volumeThreshold: 2,
      rollingWindowMs: 10_000,
      resetTimeoutMs: 500,
    };
    const breaker = new AuthorityBreaker({
      name: "tax-poll",
      settings,
      metrics: createBreakerMetrics(new Registry()),
      logger,
      shared: board,
    });
    open.push({ close: () => breaker.shutdown() });
    const call = () => breaker.run((signal) => postXml(`${base}/alone`, "<x/>", signal));
    mode = "down";
    while (breaker.state !== "open") await call().catch(() => undefined);
    expect(await rejectionOf(call())).toMatchObject({ reason: "breaker_open" });
    mode = "up";
    await sleep(settings.resetTimeoutMs + 100);
    expect(await call()).toBe("<ok/>");
    expect(breaker.state).toBe("closed");
  });

  it("one replica opens, the others stop sending within a second; one trial per reset timeout; all recover", async () => {
    const settings: BreakerSettings = {
      timeoutMs: 1_000,
      errorThresholdPercentage: 50,
      volumeThreshold: 3,
      rollingWindowMs: 10_000,
      resetTimeoutMs: 3_000,
    };
    const limits = { maxConcurrent: 50, maxPerSecond: 500 };
    const [a, b, c] = await Promise.all(["a", "b", "c"].map((name) => replica(name, "breaker", settings, limits)));
    const replicas = [a!, b!, c!];
    mode = "down";

    // b and c keep calling every 150 ms (too few failures to open on their own for 450 ms).
    const outcomes: Array<{ replica: string; at: number; result: string }> = [];
    let running = true;
    const loop = async (r: Replica, everyMs: number) => {
      while (running) {
        const at = Date.now();
        const result = await r.call().then(
          () => "ok",
          (error: unknown) => (error instanceof AuthorityUnavailableError ? error.reason : "error"),
        );
        outcomes.push({ replica: r.name, at, result });
        await sleep(everyMs);
      }
    };
    const loops = [loop(b!, 150), loop(c!, 150)];
    // a hits the failing authority as fast as it can and opens first.
    while (a!.breaker.state !== "open") await a!.call().catch(() => undefined);
    const openedAt = Date.now();
    loops.push(loop(a!, 150));

    // The others open on a's word, within a second, without reaching their own threshold.
    await waitFor(() => b!.breaker.state === "open" && c!.breaker.state === "open", { timeoutMs: 1_000 });
    const followedMs = Date.now() - openedAt;
    for (const r of [b!, c!]) {
      expect(await r.metric("authority_breaker_shared_events_total", { event: "opened_by_peer" })).toBe(1);
      expect(await r.metric("authority_breaker_failures_total")).toBeLessThan(settings.volumeThreshold);
    }
    // Nothing reaches the authority from then until the reset timeout, from any replica.
    await sleep(settings.resetTimeoutMs - 300);
    const quiet = arrivals.filter((x) => x.at > openedAt + 1_000 && x.at < openedAt + settings.resetTimeoutMs - 300);
    expect(quiet).toEqual([]);
    expect(outcomes.filter((o) => o.at > openedAt + 1_000 && o.result === "breaker_open").length).toBeGreaterThan(10);

    // Half-open, still down: exactly one trial among the three, which fails and opens them all again.
    const beforeTrial = arrivals.length;
    await sleep(2_000);
    const trials = arrivals.slice(beforeTrial);
    expect(trials).toHaveLength(1);
    expect(replicas.every((r) => r.breaker.state !== "closed")).toBe(true);

    // The authority comes back: the next trial succeeds and every replica closes and sends.
    mode = "up";
    await waitFor(() => replicas.every((r) => r.breaker.state === "closed"), { timeoutMs: 4_000 });
    const closedAt = Date.now();
    await waitFor(
      () => ["a", "b", "c"].every((name) => outcomes.some((o) => o.replica === name && o.at >= closedAt && o.result === "ok")),
      {
        timeoutMs: 1_000,
      },
    );
    running = false;
    await Promise.all(loops);
    const closedByPeer = await Promise.all(
      replicas.map((r) => r.metric("authority_breaker_shared_events_total", { event: "closed_by_peer" })),
    );
    expect(closedByPeer.reduce((x, y) => x + y, 0)).toBe(2);
    console.info(`shared breaker: the other replicas opened ${followedMs} ms after the first`);
  }, 20_000);
});
