import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { FORWARDED_ADDRESS_HEADER, signForwardedAddress } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfRoomyMinute } from "../test-support/minute-window.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const SECRET = "mcp-client-address-test-secret-0123456789";

// Issue 28 section 3: the MCP server calls the gateway from its own address for all its users.
// With its caller's address signed by the secret the two share, failed authentications count per
// MCP caller; a header without a valid proof (anyone else's) is ignored. Every request of this
// test comes from 127.0.0.1; the limit is 30 failures a minute per address.
describe("failed authentications through the MCP server", () => {
  let gw: TestGateway;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    gw = await createTestGateway({ label: "gw_mcp_address", settings: { mcpClientAddressSecret: SECRET } });
    server = gw.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await gw?.close();
  });

  /** A failed authentication (a malformed key: no lookup), vouched for as `address` when given. */
  async function fail(address?: string, secret = SECRET): Promise<number> {
    const headers: Record<string, string> = { "X-API-Key": "api_live_not_a_key" };
    if (address) headers[FORWARDED_ADDRESS_HEADER] = signForwardedAddress(secret, address);
    const response = await fetch(`${base}/account`, { headers });
    await response.body?.cancel();
    return response.status;
  }
  const failTimes = async (n: number, address?: string, secret?: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push(await fail(address, secret));
    return statuses;
  };

  it("counts each MCP caller's failures in its own bucket", async () => {
    await startOfRoomyMinute();
    expect(await failTimes(30, "203.0.113.1")).toEqual(Array(30).fill(401));
    expect(await fail("203.0.113.1")).toBe(429);
    // Another MCP caller, and the MCP server's own address, are untouched.
    expect(await fail("203.0.113.2")).toBe(401);
    expect(await fail("2001:db8::2")).toBe(401);
    expect(await fail()).toBe(401);
  });

  it("ignores the header without a valid proof: the failures count against the connection's address", async () => {
    const forged = await failTimes(29, "203.0.113.3", "a-secret-only-the-attacker-holds-0123456789");
    expect(forged).toEqual(Array(29).fill(401));
    // 127.0.0.1 has now failed 30 times (one above, 29 here): it is over its limit, forged or not.
    expect(await fail()).toBe(429);
    expect(await fail("203.0.113.3", "a-secret-only-the-attacker-holds-0123456789")).toBe(429);
    const stale = await fetch(`${base}/account`, {
      headers: {
        "X-API-Key": "api_live_not_a_key",
        [FORWARDED_ADDRESS_HEADER]: signForwardedAddress(SECRET, "203.0.113.4", Date.now() - 120_000),
      },
    });
    expect(stale.status).toBe(429);
    await stale.body?.cancel();
    // The address the MCP server vouches for was never counted.
    expect(await fail("203.0.113.3")).toBe(401);
  });
});
