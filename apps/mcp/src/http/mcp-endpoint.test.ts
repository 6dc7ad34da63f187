import { createLogger } from "@dormant/service-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiStandIn, startApiStandIn } from "../test-support/api-stand-in.ts";
import { type McpHttpServer, startMcpHttpServer } from "./listen.ts";

const GOOD = "api_test_good";
const OTHER = "api_test_other";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

async function connect(endpoint: string, apiKey: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  const client = new Client({ name: "endpoint-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

describe("the Streamable HTTP endpoint", () => {
  let api: ApiStandIn;
  let server: McpHttpServer;
  let endpoint: string;

  beforeAll(async () => {
    api = await startApiStandIn([GOOD, OTHER]);
    const config = { MCP_HOST: "127.0.0.1", MCP_PORT: 0, DORMANT_API_URL: api.url, MCP_SESSION_IDLE_MS: 60_000, MCP_MAX_SESSIONS: 2 };
    server = await startMcpHttpServer(config, { logger: createLogger({ service: "mcp", level: "silent" }), isAcceptingWork: () => true });
    endpoint = `${server.url}/mcp`;
  });

  afterAll(async () => {
    await server?.close();
    await api?.close();
  });

  it("answers 401 to a request without a key and opens no session", async () => {
    const response = await post(endpoint, INITIALIZE);
    expect(response.status).toBe(401);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/API key is required/) } });
    expect(server.sessions.size).toBe(0);
  });

  it("answers 401 when the API refuses the key, before any session exists", async () => {
    const response = await post(endpoint, INITIALIZE, { "X-API-Key": "api_test_revoked" });
    expect(response.status).toBe(401);
    expect(server.sessions.size).toBe(0);
    expect(api.keysSeen.at(-1)).toBe("api_test_revoked");
  });

  it("opens a session for an accepted key, lists the tools, and refuses the session to another key", async () => {
    const { client, transport } = await connect(endpoint, GOOD);
    expect(server.sessions.size).toBe(1);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      "get_account",
      "get_deadlines",
      "get_document",
      "get_filing",
      "list_documents",
      "list_filings",
      "submit_accounts",
      "submit_ct600",
      "validate_accounts",
      "validate_ct600",
      "wait_for_filing",
    ]);

    const sessionId = transport.sessionId ?? "";
    const hijack = await post(
      endpoint,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "X-API-Key": OTHER, "Mcp-Session-Id": sessionId, "Mcp-Protocol-Version": "2025-06-18" },
    );
    expect(hijack.status).toBe(403);
    const unknown = await post(endpoint, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { "X-API-Key": GOOD, "Mcp-Session-Id": "nope" });
    expect(unknown.status).toBe(404);

    await transport.terminateSession();
    await client.close();
    expect(server.sessions.size).toBe(0);
  });

  it("stops polling the API when the client cancels wait_for_filing", async () => {
    const { client, transport } = await connect(endpoint, GOOD);
    const polls = () => api.pathsSeen.filter((path) => path === "/api/v1/filings/fil_waiting").length;
    const controller = new AbortController();
    const waiting = client
      .callTool({ name: "wait_for_filing", arguments: { filing_id: "fil_waiting", timeout_seconds: 60 } }, undefined, {
        signal: controller.signal,
        timeout: 60_000,
      })
      .catch((error: unknown) => error);
    for (const started = Date.now(); polls() === 0 && Date.now() - started < 5_000; ) await new Promise((r) => setTimeout(r, 20));
    expect(polls()).toBe(1);
    // The SDK's client sends notifications/cancelled; the tool polls every 2 s at first.
    controller.abort(new Error("the user stopped waiting"));
    expect(await waiting).toMatchObject({ message: expect.stringMatching(/the user stopped waiting/) });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(polls()).toBe(1);
    await transport.terminateSession();
    await client.close();
  });

  it("serves /healthz and /readyz (the API answering)", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", pid: process.pid, checks: { api: "ok" } });
  });
});
