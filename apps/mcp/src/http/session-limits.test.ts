import { createLogger } from "@dormant/service-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiStandIn, startApiStandIn } from "../test-support/api-stand-in.ts";
import { type McpHttpServer, startMcpHttpServer } from "./listen.ts";

const BUSY = "api_test_busy";
const OTHER = "api_test_other";

async function connect(endpoint: string, apiKey: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { "X-API-Key": apiKey } } });
  const client = new Client({ name: "session-limits-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

// Issue 28 section 3: one key cannot take every session of the server (MCP_MAX_SESSIONS_PER_KEY),
// as well as the global MCP_MAX_SESSIONS. The SDK's own client opens the sessions.
describe("sessions per API key", () => {
  let api: ApiStandIn;
  let server: McpHttpServer;
  let endpoint: string;
  const open: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];

  beforeAll(async () => {
    api = await startApiStandIn([BUSY, OTHER]);
    const config = {
      MCP_HOST: "127.0.0.1",
      MCP_PORT: 0,
      DORMANT_API_URL: api.url,
      MCP_SESSION_IDLE_MS: 60_000,
      MCP_MAX_SESSIONS: 10,
      MCP_MAX_SESSIONS_PER_KEY: 2,
    };
    server = await startMcpHttpServer(config, { logger: createLogger({ service: "mcp", level: "silent" }), isAcceptingWork: () => true });
    endpoint = `${server.url}/mcp`;
  });

  afterAll(async () => {
    for (const { client } of open) await client.close();
    await server?.close();
    await api?.close();
  });

  it("refuses a key's session beyond its limit with a clear 429, while other keys still open theirs", async () => {
    open.push(await connect(endpoint, BUSY), await connect(endpoint, BUSY));
    expect(server.sessions.size).toBe(2);

    const refused = await connect(endpoint, BUSY).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 429, message: expect.stringMatching(/already has 2 open sessions/) });
    expect(server.sessions.size).toBe(2);

    open.push(await connect(endpoint, OTHER));
    expect(server.sessions.size).toBe(3);

    // Ending one of the key's sessions frees its place.
    const ended = open.shift()!;
    await ended.transport.terminateSession();
    await ended.client.close();
    open.push(await connect(endpoint, BUSY));
    expect(server.sessions.size).toBe(3);
  });

  it("counts sessions still being opened, so a burst of initializes cannot overshoot the limit", async () => {
    const burst = await Promise.allSettled(Array.from({ length: 5 }, () => connect(endpoint, OTHER)));
    const opened = burst.filter((result) => result.status === "fulfilled");
    for (const result of opened) open.push(result.value);
    expect(opened).toHaveLength(1);
    expect(server.sessions.size).toBe(4);
  });
});
