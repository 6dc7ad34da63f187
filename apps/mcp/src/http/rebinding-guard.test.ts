import { request } from "node:http";
import { createLogger } from "@dormant/service-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiStandIn, startApiStandIn } from "../test-support/api-stand-in.ts";
import { type McpHttpServer, startMcpHttpServer } from "./listen.ts";

const GOOD = "api_test_good";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** A raw initialize with the Host and Origin given (fetch would not let a test set Host). */
function initialize(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-API-Key": GOOD, ...headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

// Issue 28 section 3: DNS-rebinding protection of the Streamable HTTP endpoint. A web page whose
// name was rebound to this server's address sends its own name as Host; a page of another site
// sends its Origin. Both are refused before the key is looked at; assistants (no Origin, a Host
// naming the server) are served.
describe("DNS-rebinding protection of /mcp", () => {
  let api: ApiStandIn;
  let server: McpHttpServer;

  beforeAll(async () => {
    api = await startApiStandIn([GOOD]);
    const config = {
      MCP_HOST: "127.0.0.1",
      MCP_PORT: 0,
      DORMANT_API_URL: api.url,
      MCP_SESSION_IDLE_MS: 60_000,
      MCP_MAX_SESSIONS: 10,
      MCP_ALLOWED_HOSTS: ["localhost", "127.0.0.1", "[::1]", "mcp.example.com"],
      MCP_ALLOWED_ORIGINS: ["https://assistant.example.com"],
    };
    server = await startMcpHttpServer(config, { logger: createLogger({ service: "mcp", level: "silent" }), isAcceptingWork: () => true });
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });

  it("refuses a Host it does not answer to, and an Origin not allowed, before asking the API", async () => {
    const asked = api.keysSeen.length;
    const rebound = await initialize(server.port, { Host: `attacker.example:${server.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/Host/) } });
    const crossSite = await initialize(server.port, { Host: `localhost:${server.port}`, Origin: "https://attacker.example" });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body)).toMatchObject({ error: { message: expect.stringMatching(/Origin not allowed/) } });
    expect(api.keysSeen.length).toBe(asked);
    expect(server.sessions.size).toBe(0);
  });

  it("serves the allowed names and origins, and leaves the probes alone", async () => {
    const named = await initialize(server.port, { Host: "mcp.example.com", Origin: "https://assistant.example.com" });
    expect(named.status).toBe(200);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { "X-API-Key": GOOD } } });
    const client = new Client({ name: "rebinding-test", version: "1.0.0" });
    await client.connect(transport);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    // Kubernetes probes name the pod's address as Host.
    const probe = await new Promise<number>((resolve, reject) => {
      request({ host: "127.0.0.1", port: server.port, path: "/healthz", headers: { Host: "10.1.2.3:3100" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(probe).toBe(200);
  });
});
