import { verifyForwardedAddress } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ApiStandIn, startApiStandIn } from "../test-support/api-stand-in.ts";
import { type McpHttpServer, startMcpHttpServer } from "./listen.ts";

const GOOD = "api_test_good";
const SECRET = "mcp-caller-address-test-secret-0123456789";

// Issue 28 section 3: the MCP server calls the gateway from its own address for all its users, so
// it signs each caller's address onto its API calls (the gateway verifies it: contracts'
// forwarded-address.ts, apps/gateway/src/auth/mcp-client-address.test.ts). Behind one trusted
// proxy, the caller is the last X-Forwarded-For entry.
describe("the caller's address on the API calls of its session", () => {
  let api: ApiStandIn;
  let server: McpHttpServer;
  let endpoint: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    api = await startApiStandIn([GOOD]);
    const config = {
      MCP_HOST: "127.0.0.1",
      MCP_PORT: 0,
      DORMANT_API_URL: api.url,
      MCP_SESSION_IDLE_MS: 60_000,
      MCP_MAX_SESSIONS: 10,
      MCP_TRUST_PROXY_HOPS: 1,
      MCP_CLIENT_ADDRESS_SECRET: SECRET,
    };
    server = await startMcpHttpServer(config, { logger: createLogger({ service: "mcp", level: "silent" }), isAcceptingWork: () => true });
    endpoint = `${server.url}/mcp`;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });

  async function connect(forwardedFor: string): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { "X-API-Key": GOOD, "X-Forwarded-For": forwardedFor } },
    });
    const client = new Client({ name: "caller-address-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const vouchedFor = () => api.callerAddressesSeen.map((header) => verifyForwardedAddress(SECRET, header));

  it("signs the caller's address onto the key check and every tool call", async () => {
    const seen = api.callerAddressesSeen.length;
    const client = await connect("198.51.100.1, 203.0.113.9");
    await client.callTool({ name: "get_filing", arguments: { filing_id: "fil_one" } });
    expect(api.pathsSeen.slice(seen)).toEqual(["/api/v1/account", "/api/v1/filings/fil_one"]);
    expect(vouchedFor().slice(seen)).toEqual(["203.0.113.9", "203.0.113.9"]);
    // Not something a client of the gateway could make without the secret.
    expect(api.callerAddressesSeen.slice(seen).every((header) => verifyForwardedAddress(`${SECRET}x`, header) === undefined)).toBe(true);
  });

  it("gives each caller its own address", async () => {
    const seen = api.callerAddressesSeen.length;
    await connect("203.0.113.10");
    await connect("2001:db8::10");
    expect(vouchedFor().slice(seen)).toEqual(["203.0.113.10", "2001:db8::10"]);
  });
});
