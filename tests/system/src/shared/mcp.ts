import { join } from "node:path";
import { getFreePort } from "@dormant/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppProcess } from "../harness/app-process.ts";
import { repoRoot } from "../harness/paths.ts";
import type { RunningSystem } from "../harness/system.ts";

const GATEWAY_PASSWORD = "mcp-systest-gateway-pw-7f3a9c";
const AUTH_CODE = "Q7R8S9";
const ct600 = (company: string) => ({
  company_number: company,
  utr: "1234567890",
  period_end: "2026-03-31",
  credentials: { government_gateway_id: "MCP-AGENT-01", government_gateway_password: GATEWAY_PASSWORD },
});
const accounts = (company: string) => ({
  company_number: company,
  period_end: "2026-03-31",
  credentials: { company_auth_code: AUTH_CODE },
});
const TOOLS = [
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
];
/** Long enough for a live filing at the simulator's fast timing; progress notifications reset it. */
const LONG_CALL = { timeout: 120_000, resetTimeoutOnProgress: true };

/** Every text a tool answered, to search for secrets. */
const answered: string[] = [];

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (progress: Progress) => void,
): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args }, undefined, { ...LONG_CALL, ...(onprogress ? { onprogress } : {}) });
  answered.push(JSON.stringify(result));
  if (!("content" in result) || !Array.isArray(result.content)) throw new Error(`${name}: no content`);
  return {
    content: result.content,
    ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
    ...(result.isError === true ? { isError: true } : {}),
  };
}

/** The JSON of a result's first (text) content. */
function json(result: CallToolResult): Record<string, unknown> {
  const first = result.content[0];
  if (first?.type !== "text") throw new Error("expected text content first");
  return JSON.parse(first.text);
}

function expectNoSecrets(text: string, apiKeys: string[]): void {
  for (const secret of [GATEWAY_PASSWORD, AUTH_CODE, ...apiKeys]) expect(text).not.toContain(secret);
}

// The MCP server (apps/mcp) against the whole system as processes, driven by the SDK's own client:
// Streamable HTTP as `npm start` runs it (its own process, the caller's live key per session),
// stdio as `npm run mcp` runs it (spawned with DORMANT_API_KEY, a test key).
export function mcpSuite(shared: () => RunningSystem): void {
  describe("the MCP server against the running system", () => {
    let system: RunningSystem;
    let keys: { liveKey: string; testKey: string };
    let mcp: AppProcess;
    let endpoint: string;

    beforeAll(async () => {
      system = shared();
      keys = await system.createAccount({ balancePence: 10_000 });
      const port = await getFreePort();
      mcp = new AppProcess({
        name: "mcp",
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: process.env.HOME ?? "/tmp",
          NODE_ENV: "development",
          LOG_LEVEL: "debug",
          LOG_FORMAT: "json",
          MCP_PORT: String(port),
          MCP_HOST: "127.0.0.1",
          DORMANT_API_URL: `${system.gatewayUrl}/api/v1`,
        },
        readyUrl: `http://127.0.0.1:${port}/readyz`,
      });
      await mcp.start();
      endpoint = `http://127.0.0.1:${port}/mcp`;
    });

    afterAll(async () => {
      await mcp?.stop();
      const report = [system?.crashReport(), mcp?.unexpectedExits.length ? `mcp: ${mcp.unexpectedExits.join(", ")}\n${mcp.logTail()}` : ""]
        .filter(Boolean)
        .join("\n\n");
      if (report) throw new Error(report);
    });

    it("HTTP: refuses a request without an API key with 401, opening no session", async () => {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "no-key", version: "1" } },
        }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      const client = new Client({ name: "no-key", version: "1.0.0" });
      await expect(client.connect(new StreamableHTTPClientTransport(new URL(endpoint)))).rejects.toThrow();
    });

    it("HTTP with a live key: lists the tools, validates, submits a CT600, waits with progress, downloads the PDF and the XML", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { "X-API-Key": keys.liveKey } } });
      const client = new Client({ name: "system-test-http", version: "1.0.0" });
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools;
        expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
        expect(tools.find((tool) => tool.name === "submit_ct600")?.description).toMatch(/20\.00 GBP/);
        expect(tools.find((tool) => tool.name === "submit_ct600")?.description).toMatch(/validate_ct600/);

        // Validation first: the registry does not know the company; a report, not an error, and nothing filed.
        const unknown = await call(client, "validate_ct600", ct600("99999999"));
        expect(unknown.isError).toBeUndefined();
        expect(unknown.structuredContent).toMatchObject({
          valid: false,
          problems: [expect.objectContaining({ field: "company_number", code: "BUSINESS_RULE" })],
        });
        expect(unknown.structuredContent).not.toHaveProperty("sandbox");
        const valid = await call(client, "validate_ct600", ct600("00000001"));
        expect(valid.structuredContent).toMatchObject({ valid: true, problems: [], period_split: false });
        expect(valid.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^VALID/) });

        const submitted = json(await call(client, "submit_ct600", ct600("00000001")));
        expect(submitted).toMatchObject({
          status: "submitted",
          filing_id: expect.stringMatching(/^fil_/),
          idempotency_key: expect.stringMatching(/^mcp-/),
        });
        const again = json(await call(client, "submit_ct600", ct600("00000001")));
        expect(again).toMatchObject({ filing_id: submitted.filing_id, idempotency_key: submitted.idempotency_key });

        const progress: Progress[] = [];
        const waited = json(
          await call(client, "wait_for_filing", { filing_id: submitted.filing_id, timeout_seconds: 90 }, (p) => progress.push(p)),
        );
        expect(waited).toMatchObject({ final: true, filing: { filing_id: submitted.filing_id, status: "accepted" } });
        // The server notifies every change, the last one just before the result. The SDK's client
        // runs notification handlers a microtask after it reads them but drops a request's progress
        // handler as soon as its response is read, so a notification that reaches the client in the
        // same read as the result is not reported: the earlier changes are.
        expect(progress.length).toBeGreaterThanOrEqual(1);
        expect(progress.every((p) => /(pending|submitted|accepted)/.test(p.message ?? ""))).toBe(true);

        const listed = json(await call(client, "list_documents", { filing_id: submitted.filing_id }));
        expect(listed).toMatchObject({ documents: expect.arrayContaining([expect.objectContaining({ type: "ct600_pdf" })]) });

        const pdf = await call(client, "get_document", { filing_id: submitted.filing_id, type: "ct600_pdf" });
        const resource = pdf.content[1];
        if (resource?.type !== "resource" || !("blob" in resource.resource)) throw new Error("expected an embedded blob resource");
        expect(resource.resource.mimeType).toBe("application/pdf");
        expect(Buffer.from(resource.resource.blob, "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");

        const xml = await call(client, "get_document", { filing_id: submitted.filing_id, type: "ct600_xml" });
        const xmlResource = xml.content[1];
        if (xmlResource?.type !== "resource" || !("text" in xmlResource.resource)) throw new Error("expected an embedded text resource");
        expect(xmlResource.resource.text).toContain("IRmark");

        const filings = json(await call(client, "list_filings", { type: "ct600", limit: 10 }));
        expect(filings).toMatchObject({ filings: [expect.objectContaining({ filing_id: submitted.filing_id })] });
        expect(json(await call(client, "get_account", {}))).toMatchObject({ currency: "GBP" });
        expect(await call(client, "get_deadlines", { company_number: "00000001" })).not.toHaveProperty("isError");

        const missing = await call(client, "get_filing", { filing_id: "fil_does_not_exist" });
        expect(missing.isError).toBe(true);
        expect(json(missing)).toMatchObject({
          error: { code: "FILING_NOT_FOUND", status: 404, next_step: expect.stringMatching(/list_filings/) },
        });
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    });

    it("stdio with a test key: validates, submits in the sandbox, waits, downloads the PDF; the log holds no secret", async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", join(repoRoot, "apps", "mcp", "src", "stdio.ts")],
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: process.env.HOME ?? "/tmp",
          DORMANT_API_KEY: keys.testKey,
          DORMANT_API_URL: `${system.gatewayUrl}/api/v1`,
          LOG_LEVEL: "debug",
        },
        stderr: "pipe",
      });
      const stderr: string[] = [];
      transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
      const client = new Client({ name: "system-test-stdio", version: "1.0.0" });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);

        const validated = await call(client, "validate_ct600", ct600("00000001"));
        expect(validated.structuredContent).toMatchObject({ valid: true, sandbox: true, problems: [] });
        expect(validated.structuredContent?.checks).toEqual(
          expect.arrayContaining([expect.objectContaining({ name: "hmrc_business_rules", passed: true })]),
        );
        // A contract problem is refused by the tool's input schema (the API's own contract) before any request.
        const contract = await call(client, "validate_ct600", { ...ct600("00000001"), utr: "12" });
        expect(contract.isError).toBe(true);
        expect(contract.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/at utr/) });
        const accountsReport = await call(client, "validate_accounts", accounts("00000001"));
        expect(accountsReport.structuredContent).toMatchObject({ valid: true, sandbox: true });

        const submitted = json(await call(client, "submit_ct600", ct600("00000001")));
        expect(submitted).toMatchObject({ sandbox: true, filing_id: expect.stringMatching(/^fil_test_ct600_00000001_/) });
        const progress: Progress[] = [];
        const waited = json(
          await call(client, "wait_for_filing", { filing_id: submitted.filing_id, timeout_seconds: 30 }, (p) => progress.push(p)),
        );
        expect(waited).toMatchObject({ final: true, filing: { status: "accepted" } });
        // Final at the first poll: its one notification comes just before the result and may reach
        // the SDK's client in the same read (see the HTTP case), so it is not always reported.
        expect(progress.length).toBeLessThanOrEqual(1);
        expect(progress.every((p) => /accepted/.test(p.message ?? ""))).toBe(true);

        const pdf = await call(client, "get_document", { filing_id: submitted.filing_id, type: "ct600_pdf" });
        const resource = pdf.content[1];
        if (resource?.type !== "resource" || !("blob" in resource.resource)) throw new Error("expected an embedded blob resource");
        expect(Buffer.from(resource.resource.blob, "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");

        const accountsFiled = json(await call(client, "submit_accounts", accounts("00000001")));
        expect(accountsFiled).toMatchObject({ sandbox: true, idempotency_key: expect.stringMatching(/^mcp-/) });

        const invalid = await call(client, "submit_accounts", { ...accounts("00000001"), period_end: "2026-02-30" });
        expect(invalid.isError).toBe(true);
      } finally {
        await client.close();
      }
      const log = stderr.join("");
      expect(log).toMatch(/"tool":"submit_ct600"/);
      expect(log).toMatch(/"tool":"validate_ct600"/);
      expectNoSecrets(log, [keys.liveKey, keys.testKey]);
    });

    it("no tool result and no line of the HTTP server's log carries a password, an authentication code or a key", () => {
      expect(answered.length).toBeGreaterThan(10);
      expectNoSecrets(answered.join("\n"), [keys.liveKey, keys.testKey]);
      const log = mcp.logTail(400);
      expect(log).toMatch(/"tool":"wait_for_filing"/);
      expectNoSecrets(log, [keys.liveKey, keys.testKey]);
    });
  });
}
