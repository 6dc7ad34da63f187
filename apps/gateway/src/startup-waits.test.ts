import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  createDelayedTcpProxy,
  createTestRedisPrefix,
  createTestVhost,
  type DelayedTcpProxy,
  getFreePort,
  type TestDatabase,
  type TestVhost,
  testInfra,
  waitFor,
} from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayTestDatabase } from "./test-support/test-database.ts";
import { TEST_PEPPER } from "./test-support/test-gateway.ts";

interface Readiness {
  status: string;
  checks: Record<string, string>;
}

/**
 * A gateway started while Postgres, Redis and RabbitMQ are unreachable (each behind a port that
 * refuses until the test opens it) stays alive, answers /healthz, reports /readyz 503 naming what
 * it waits for, and becomes ready as each dependency becomes reachable: what a gateway restarted
 * during a broker restart must do instead of exiting 1.
 */
describe("the gateway process at start-up", () => {
  let vhost: TestVhost;
  let database: TestDatabase;
  let child: ChildProcess;
  let port: number;
  let postgres: DelayedTcpProxy;
  let redisProxy: DelayedTcpProxy;
  let rabbitmq: DelayedTcpProxy;
  let output = "";
  const redis = createTestRedisPrefix("gw_startup");

  beforeAll(async () => {
    [vhost, database, port] = await Promise.all([createTestVhost("gw_startup"), createGatewayTestDatabase("startup"), getFreePort()]);
    [postgres, redisProxy, rabbitmq] = await Promise.all([
      createDelayedTcpProxy({ port: Number(new URL(database.url).port || 5432) }),
      createDelayedTcpProxy({ port: Number(new URL(testInfra.redisUrl).port || 6379) }),
      createDelayedTcpProxy({ port: Number(new URL(vhost.url).port || 5672) }),
    ]);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    await Promise.all([postgres?.close(), redisProxy?.close(), rabbitmq?.close()]);
    await redis.cleanup();
    await database?.drop();
    await vhost?.delete();
  });

  const readiness = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return { status: response.status, body: (await response.json()) as Readiness };
  };
  /** Readiness 503 naming `dependency` (and `cause`, once the first attempt has failed). */
  const waitingFor = (dependency: string, cause?: RegExp) =>
    waitFor(
      async () => {
        const { status, body } = await readiness();
        const startup = body.checks.startup ?? "";
        return status === 503 && startup.includes(`waiting for ${dependency}`) && (!cause || cause.test(startup)) ? body : undefined;
      },
      { timeoutMs: 10_000, what: `readiness to name ${dependency}` },
    );

  it("waits for each dependency, alive and not ready, then serves", async () => {
    child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./main.ts", import.meta.url))], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        LOG_LEVEL: "warn",
        LOG_FORMAT: "json",
        PORT: String(port),
        HOST: "127.0.0.1",
        GATEWAY_DATABASE_URL: postgres.url(database.url),
        REDIS_URL: redisProxy.url(testInfra.redisUrl),
        REDIS_KEY_PREFIX: redis.prefix,
        AMQP_URL: rabbitmq.url(vhost.url),
        API_KEY_PEPPER: TEST_PEPPER,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

    // Nothing reachable: alive, live, not ready, the API answers 503.
    // Until its first attempt fails it says "(connecting)"; then it names the cause.
    const first = await waitingFor("postgres", /ECONNREFUSED|refused|reach/i);
    expect(first.checks.startup).toMatch(/ECONNREFUSED|refused|reach/i);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const api = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(child.exitCode).toBeNull();

    // Each dependency in turn: the gateway moves on to the next one, still alive.
    await postgres.open();
    await waitingFor("redis");
    await redisProxy.open();
    await waitingFor("rabbitmq");
    expect(child.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    await rabbitmq.open();
    const ready = await waitFor(
      async () => {
        const { status, body } = await readiness();
        return status === 200 ? body : undefined;
      },
      { timeoutMs: 10_000, what: "the gateway to be ready" },
    );
    expect(ready.checks).toMatchObject({ redis: "ok", postgres: "ok", rabbitmq: "ok" });
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);

    // Each failed attempt was logged at warn with its cause and the next delay; no URL's password.
    const retries = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; dependency?: string; cause?: string; next_attempt_in_ms?: number })
      .filter((line) => line.dependency !== undefined && line.next_attempt_in_ms !== undefined);
    for (const dependency of ["postgres", "redis", "rabbitmq"]) {
      const lines = retries.filter((line) => line.dependency === dependency);
      expect(lines.length, dependency).toBeGreaterThan(0);
      expect(lines.every((line) => line.level === "warn" && typeof line.cause === "string" && line.next_attempt_in_ms! > 0)).toBe(true);
    }
    const password = new URL(vhost.url).password;
    if (password) expect(output).not.toContain(`:${password}@`);
  }, 45_000);
});
