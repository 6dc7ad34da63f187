import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatApiKey, generateApiKey } from "../keys/format.ts";
import { startOfRoomyMinute } from "../test-support/minute-window.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// Issue 28 section 3: key lookups of an address over its failed-authentication limit run one at a
// time per replica; the line behind the running one is bounded (AUTH_LOOKUP_QUEUE_LIMIT), and a
// lookup beyond it is answered 429 with Retry-After at once instead of waiting. The key store is
// made slow for real: the test holds a lock on api_keys while the flood arrives.
describe("the line of key lookups behind an address over its failure limit", () => {
  let gw: TestGateway;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    gw = await createTestGateway({ label: "gw_lookup_queue", settings: { authLookupQueueLimit: 2 } });
    server = gw.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await gw?.close();
  });

  const call = (key?: string, signal?: AbortSignal) =>
    fetch(`${base}/companies/00000001/deadlines`, {
      ...(key === undefined ? {} : { headers: { "X-API-Key": key } }),
      ...(signal ? { signal } : {}),
    });
  const unknownKey = () => formatApiKey(generateApiKey("live"));

  it("answers 429 with Retry-After when the line is full, and serves a valid key once it drains", async () => {
    await startOfRoomyMinute();
    // Over the limit (30 failures a minute): missing keys cost no lookup.
    for (let i = 0; i < 31; i++) await (await call()).body?.cancel();
    const over = await call();
    expect(over.status).toBe(429);
    await over.body?.cancel();

    const fresh = await gw.createAccount({ name: "Queued Keys Ltd" });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const lock = gw.db.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE");
        locked();
        await released;
      },
      { timeout: 30_000, maxWait: 5_000 },
    );
    try {
      await lockHeld;
      // One lookup runs (blocked on the lock), two wait; every further one is refused at once.
      const flood = Array.from({ length: 8 }, () => call(unknownKey()));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      // Unbounded, it would wait for the lock (the abort makes that a failure, not a hang).
      const refused = await call(fresh.testKey, AbortSignal.timeout(5_000));
      const waited = performance.now() - started;
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("x-ratelimit-limit-minute")).toBe("30");
      expect(await refused.json()).toMatchObject({
        success: false,
        error: { code: "RATE_LIMIT_EXCEEDED" },
        request_id: expect.any(String),
      });
      expect(waited).toBeLessThan(2_000);

      release();
      const statuses = await Promise.all(
        flood.map(async (pending) => {
          const response = await pending;
          await response.body?.cancel();
          return response.status;
        }),
      );
      // All refused (unknown keys from an address over its limit), 3 of them after a lookup.
      expect(statuses).toEqual(Array(8).fill(429));
    } finally {
      release();
      await lock;
    }

    // The line drained: the same valid key, never verified before, is looked up and served.
    const served = await call(fresh.testKey);
    expect(served.status).toBe(200);
    await served.body?.cancel();
  });
});
