import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "@dormant/service-kit";
import { getFreePort, waitFor, rejectionOf } from "@dormant/testing";
import { Registry } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthorityBreaker } from "./authority-breaker.ts";
import { createBreakerMetrics, type BreakerMetrics } from "./breaker-metrics.ts";
import type { BreakerSettings } from "./breaker-settings.ts";
import { AuthorityCallAbortedError, AuthorityRequestError, AuthorityUnavailableError } from "./errors.ts";
import { postXml } from "./post-xml.ts";

/** A small authority stand-in: each path behaves one way; it records what it received and what was aborted. */
interface Seen {
  path: string;
  aborted: boolean;
}
let server: Server;
let base: string;
const seen: Seen[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://x");
  const entry: Seen = { path: url.pathname, aborted: false };
  seen.push(entry);
  res.on("close", () => {
    if (!res.writableFinished) entry.aborted = true;
  });
  req.resume();
  req.on("end", () => {
    switch (url.pathname) {
      case "/ok":
        res.writeHead(200, { "content-type": "text/xml" }).end("<ok/>");
        return;
      case "/slow":
        setTimeout(
          () => {
            if (!res.destroyed) res.writeHead(200, { "content-type": "text/xml" }).end("<late/>");
          },
          Number(url.searchParams.get("ms") ?? 1000),
        );
        return;
      case "/down":
        res.writeHead(503, { "retry-after": "30" }).end("Service Unavailable");
        return;
      case "/bad":
        res.writeHead(400).end("Bad Request");
        return;
      case "/reset":
        req.socket.destroy();
        return;
      default:
        res.writeHead(404).end();
    }
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen.length = 0;
});

const logger = createLogger({ service: "authority-client-test", level: "silent" });
const settings: BreakerSettings = {
  timeoutMs: 300,
  errorThresholdPercentage: 50,
  volumeThreshold: 3,
  rollingWindowMs: 10_000,
  resetTimeoutMs: 2_000,
};

function breakerWith(overrides: Partial<BreakerSettings> = {}): { breaker: AuthorityBreaker; registry: Registry; metrics: BreakerMetrics } {
  const registry = new Registry();
  const metrics = createBreakerMetrics(registry);
  const breaker = new AuthorityBreaker({ name: "test-endpoint", settings: { ...settings, ...overrides }, metrics, logger });
  return { breaker, registry, metrics };
}

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((value) => Object.entries(labels).every(([key, label]) => value.labels[key] === label))
    .reduce((sum, value) => sum + value.value, 0);
}

const post = (path: string) => (signal: AbortSignal) => postXml(`${base}${path}`, "<m/>", signal);

describe("AuthorityBreaker", () => {
  it("passes answers through", async () => {
    const { breaker } = breakerWith();
    expect(await breaker.run(post("/ok"))).toBe("<ok/>");
  });

  it("aborts the request itself when the timeout passes (the authority sees the connection go)", async () => {
    const { breaker, registry } = breakerWith();
    const started = Date.now();
    const error = await rejectionOf(breaker.run(post("/slow?ms=3000")));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(AuthorityUnavailableError);
    expect(error).toMatchObject({ reason: "timeout", maybeReceived: true });
    await waitFor(() => seen[0]?.aborted === true, { timeoutMs: 1000, what: "the server to see the request aborted" });
    expect(await metricValue(registry, "authority_breaker_failures_total", { reason: "timeout" })).toBe(1);
  });

  it("aborts only the call that timed out, not the others in flight", async () => {
    const { breaker } = breakerWith();
    const slow = rejectionOf(breaker.run(post("/slow?ms=3000")));
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Started 150 ms later, answers 250 ms after it started: after the first call timed out.
    const second = breaker.run(post("/slow?ms=250"));
    expect(await slow).toMatchObject({ reason: "timeout" });
    expect(await second).toBe("<late/>");
  });

  it("applies a shorter per-call timeout", async () => {
    const { breaker } = breakerWith({ timeoutMs: 5_000 });
    const started = Date.now();
    expect(await rejectionOf(breaker.run(post("/slow?ms=3000"), { timeoutMs: 200 }))).toMatchObject({ reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("opens after the failure share is reached, then fails fast without calling, with the time to wait", async () => {
    const { breaker, registry } = breakerWith();
    for (let i = 0; i < 3; i += 1) {
      expect(await rejectionOf(breaker.run(post("/down")))).toMatchObject({
        reason: "http_status",
        status: 503,
        maybeReceived: false,
        retryAfterSeconds: 30,
      });
    }
    expect(breaker.state).toBe("open");
    const started = Date.now();
    const rejected = await rejectionOf(breaker.run(post("/ok")));
    expect(Date.now() - started).toBeLessThan(50);
    expect(rejected).toMatchObject({ reason: "breaker_open", maybeReceived: false });
    expect((rejected as AuthorityUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((rejected as AuthorityUnavailableError).retryAfterSeconds).toBeLessThanOrEqual(2);
    expect(seen.map((s) => s.path)).toEqual(["/down", "/down", "/down"]);
    expect(await metricValue(registry, "authority_breaker_state")).toBe(2);
    expect(await metricValue(registry, "authority_breaker_opened_total")).toBe(1);
    expect(await metricValue(registry, "authority_breaker_rejected_total")).toBe(1);
    expect(await metricValue(registry, "authority_breaker_failures_total", { reason: "http_status" })).toBe(3);
  });

  it("lets one trial through after the reset timeout and closes when it succeeds", async () => {
    const { breaker, registry } = breakerWith({ resetTimeoutMs: 300 });
    for (let i = 0; i < 3; i += 1) await rejectionOf(breaker.run(post("/down")));
    expect(breaker.state).toBe("open");
    await waitFor(() => breaker.state === "half_open", { timeoutMs: 2000, what: "half-open" });
    expect(await metricValue(registry, "authority_breaker_state")).toBe(1);
    expect(await breaker.run(post("/ok"))).toBe("<ok/>");
    expect(breaker.state).toBe("closed");
    expect(await metricValue(registry, "authority_breaker_state")).toBe(0);
  });

  it("does not count HTTP 4xx, the caller's own abort or errors of the work as authority failures", async () => {
    const { breaker, registry } = breakerWith();
    for (let i = 0; i < 5; i += 1) expect(await rejectionOf(breaker.run(post("/bad")))).toBeInstanceOf(AuthorityRequestError);
    const caller = new AbortController();
    const aborted = rejectionOf(breaker.run(post("/slow?ms=3000"), { signal: caller.signal }));
    caller.abort(new Error("shutting down"));
    const abortedError = await aborted;
    expect(abortedError).toBeInstanceOf(AuthorityCallAbortedError);
    expect(abortedError).toMatchObject({ maybeReceived: true, cause: { message: "shutting down" } });
    for (let i = 0; i < 3; i += 1) {
      expect(await rejectionOf(breaker.run(async () => Promise.reject(new Error("business rejection"))))).toMatchObject({
        message: "business rejection",
      });
    }
    expect(breaker.state).toBe("closed");
    expect(await metricValue(registry, "authority_breaker_failures_total")).toBe(0);
  });

  it("classifies connection failures: refused was never sent, a reset may have been received", async () => {
    const { breaker } = breakerWith({ volumeThreshold: 100 });
    const closedPort = await getFreePort();
    const refused = await rejectionOf(breaker.run((signal) => postXml(`http://127.0.0.1:${closedPort}/x`, "<m/>", signal)));
    expect(refused).toMatchObject({ reason: "network", maybeReceived: false });
    expect(await rejectionOf(breaker.run(post("/reset")))).toMatchObject({ reason: "network", maybeReceived: true });
  });
});
