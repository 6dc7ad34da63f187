import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatApiKey, generateApiKey, parseApiKey } from "../keys/format.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// Issue 15 section 5: one misconfigured job must not lock out the valid keys behind its address.
// The real gateway app on its own database and Redis prefix; every request comes from 127.0.0.1.
describe("failed authentications from one address", () => {
  let gw: TestGateway;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    gw = await createTestGateway({ label: "gw_lockout" });
    server = gw.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await gw?.close();
  });

  const call = (key?: string) => fetch(`${base}/companies/00000001/deadlines`, key === undefined ? {} : { headers: { "X-API-Key": key } });

  it("never stops a valid key never used before; failures past the limit answer 429", async () => {
    const badKeys = Array.from({ length: 600 }, (_, i) =>
      i % 3 === 0 ? undefined : i % 3 === 1 ? `api_live_bogus_${i}` : formatApiKey(generateApiKey("live")),
    );
    const statuses: number[] = [];
    for (let i = 0; i < badKeys.length; i += 20) {
      const batch = await Promise.all(badKeys.slice(i, i + 20).map((key) => call(key)));
      for (const response of batch) {
        statuses.push(response.status);
        await response.body?.cancel();
      }
    }
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(30);
    expect(statuses.filter((status) => status === 401 || status === 429).length).toBe(600);
    expect(statuses.at(-1)).toBe(429);

    // A key the gateway has never seen (so not in its cache), from the same address: served.
    const fresh = await gw.createAccount({ name: "Fresh Keys Ltd" });
    const served = await call(fresh.testKey);
    expect(served.status).toBe(200);
    expect(served.headers.get("x-ratelimit-limit-minute")).toBe("10000");
    expect((await call(fresh.liveKey)).status).not.toBe(429);

    // Only the failures stay limited: the same key id with a wrong secret is still refused.
    const wrongSecret = `api_test_${parseApiKey(fresh.testKey)!.keyId}_${generateApiKey("test").secret}`;
    const refused = await call(wrongSecret);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: "RATE_LIMIT_EXCEEDED" } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await call()).status).toBe(429);
  });
});
