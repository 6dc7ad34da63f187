import { createLogger } from "../logger.ts";
import { describe, expect, it } from "vitest";
import { redactUrlCredentials, StartupGate, StartupStoppedError, startupDelayMs } from "./startup-gate.ts";

const logger = createLogger({ service: "startup-gate-test", level: "silent" });

describe("start-up waits", () => {
  it("backs off from the initial delay, doubling, capped, with jitter", () => {
    const delays = Array.from({ length: 12 }, (_, i) => startupDelayMs(i + 1, { initialDelayMs: 100, maxDelayMs: 2_000 }));
    expect(delays[0]).toBeGreaterThanOrEqual(80);
    expect(delays[0]).toBeLessThanOrEqual(120);
    expect(delays[3]).toBeGreaterThanOrEqual(640);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(2_000);
    expect(delays.at(-1)).toBeGreaterThan(1_000);
  });

  it("never shows a URL's password", () => {
    expect(redactUrlCredentials("connect to amqp://guest:s3cret@rabbit:5672/v failed")).toBe(
      "connect to amqp://guest:***@rabbit:5672/v failed",
    );
    expect(redactUrlCredentials("postgresql://postgres@db:5432/x")).toBe("postgresql://postgres@db:5432/x");
  });

  it("retries until the attempt succeeds, not ready meanwhile, and stops on request", async () => {
    const gate = new StartupGate(logger, { initialDelayMs: 100, maxDelayMs: 100 });
    let calls = 0;
    const connected = gate.connect("postgres", async () => {
      calls += 1;
      if (calls < 3) throw new Error(`connect ECONNREFUSED (try ${calls})`);
      return "client";
    });
    await expect(gate.check()).rejects.toThrow(/waiting for postgres \(connecting\)/);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(gate.check()).rejects.toThrow(/waiting for postgres \(connect ECONNREFUSED \(try \d\)\)/);
    expect(await connected).toBe("client");
    expect(calls).toBe(3);
    await expect(gate.check()).rejects.toThrow(/^starting$/);
    gate.ready();
    await expect(gate.check()).resolves.toBeUndefined();

    const stopped = new StartupGate(logger, { initialDelayMs: 10_000 });
    const waiting = stopped.connect("rabbitmq", () => Promise.reject(new Error("refused")));
    await new Promise((resolve) => setTimeout(resolve, 20));
    stopped.stop();
    await expect(waiting).rejects.toBeInstanceOf(StartupStoppedError);
  });
});
