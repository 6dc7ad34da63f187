import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { DormantClient } from "@dormant/client";
import { createLogger } from "@dormant/service-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../server.ts";

const PASSWORD = "validate-unit-pw-31337";
const AUTH_CODE = "Z9Y8X7";
const CT600 = {
  company_number: "00000001",
  utr: "1234567890",
  period_end: "2026-03-31",
  credentials: { government_gateway_id: "AGENT-01", government_gateway_password: PASSWORD },
};
const ACCOUNTS = { company_number: "00000001", period_end: "2026-03-31", credentials: { company_auth_code: AUTH_CODE } };

const VALID = {
  valid: true,
  derived_values: {
    company_name: "SANDBOX SAMPLE COMPANY LIMITED",
    period_start: "2025-04-01",
    is_first_year: false,
    declarant_name: "JANE DOE",
    declarant_status: "Director",
  },
  period_split: false,
  parts: [{ part_number: 1, period: { start: "2025-04-01", end: "2026-03-31" } }],
  problems: [],
  checks: [
    { name: "contract", passed: true },
    { name: "business_rules", passed: true },
    { name: "ct600_schema", part_number: 1, passed: true },
    { name: "hmrc_business_rules", part_number: 1, passed: true },
  ],
  sandbox: true,
};
const INVALID = {
  valid: false,
  derived_values: null,
  period_split: null,
  parts: [],
  problems: [
    // A message that (wrongly) quotes a credential: the tool must not pass it on.
    { field: "credentials.company_auth_code", code: "BUSINESS_RULE", message: `code ${AUTH_CODE} is not for this company` },
  ],
  checks: [
    { name: "contract", passed: true },
    { name: "business_rules", passed: false },
  ],
};
const RULE_BROKEN = {
  ...VALID,
  valid: false,
  sandbox: undefined,
  problems: [{ field: "return", code: "AUTHORITY_RULE", message: "The period is longer than 12 months", rule: 9012, part_number: 1 }],
};

/** A stand-in of the API's validate endpoints: answers `reply` and records each request. */
interface Received {
  url: string;
  headers: Record<string, unknown>;
  body: unknown;
}

describe("validate_ct600 and validate_accounts through the SDK's client", () => {
  let api: Server;
  let apiUrl: string;
  let reply: unknown = VALID;
  const received: Received[] = [];
  const logLines: string[] = [];
  let client: Client;

  beforeAll(async () => {
    api = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ url: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") });
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify({ success: true, data: reply, request_id: "req_v" }));
      });
    });
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v1`;

    const destination = new PassThrough();
    destination.on("data", (chunk: Buffer) => logLines.push(chunk.toString("utf8")));
    const logger = createLogger({ service: "mcp", level: "debug", destination });
    const apiKey = "api_test_unit_key";
    const server = createMcpServer({ client: new DormantClient({ apiKey, baseUrl: apiUrl, retry: { maxAttempts: 1 } }), apiKey, logger });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    client = new Client({ name: "validate-unit", version: "1.0.0" });
    await client.connect(clientTransport);
  });

  afterEach(() => {
    received.length = 0;
  });

  afterAll(async () => {
    await client?.close();
    await new Promise<void>((resolve) => api?.close(() => resolve()));
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const texts = (result: CallToolResult) => result.content.map((content) => (content.type === "text" ? content.text : ""));

  it("lists both tools with the submit's input schema (no idempotency_key), an output schema, and says what each code asks", async () => {
    const tools = (await client.listTools()).tools;
    const ct600 = tools.find((tool) => tool.name === "validate_ct600")!;
    const accounts = tools.find((tool) => tool.name === "validate_accounts")!;
    const submit = tools.find((tool) => tool.name === "submit_ct600")!;
    expect(Object.keys(ct600.inputSchema.properties ?? {}).sort()).toEqual(
      Object.keys(submit.inputSchema.properties ?? {})
        .filter((key) => key !== "idempotency_key")
        .sort(),
    );
    expect(ct600.inputSchema.required).toEqual(expect.arrayContaining(["company_number", "utr", "period_end", "credentials"]));
    expect(accounts.inputSchema.properties).not.toHaveProperty("idempotency_key");
    expect(ct600.outputSchema?.properties).toHaveProperty("problems");
    expect(ct600.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    for (const code of ["INVALID_FIELD", "BUSINESS_RULE", "AUTHORITY_SCHEMA", "AUTHORITY_RULE"]) expect(ct600.description).toContain(code);
    expect(ct600.description).toMatch(/HMRC's CT600 schema/);
    expect(ct600.description).toMatch(/before every submit_ct600/);
    expect(accounts.description).toContain("IXBRL_MANDATORY_FACT");
    expect(submit.description).toMatch(/Validate first with validate_ct600/);
    expect(tools.find((tool) => tool.name === "submit_accounts")!.description).toMatch(/Validate first with validate_accounts/);
  });

  it("validate_ct600: sends the body to the validate path without an Idempotency-Key; answers the report and a summary", async () => {
    reply = VALID;
    const result = await call("validate_ct600", CT600);
    expect(result.isError).toBeUndefined();
    expect(received).toEqual([
      {
        url: "/api/v1/filings/ct600/validate",
        headers: expect.not.objectContaining({ "idempotency-key": expect.anything() }),
        body: CT600,
      },
    ]);
    expect(result.structuredContent).toEqual(VALID);
    const [summary, json] = texts(result);
    expect(summary).toMatch(/^VALID \(sandbox: test key\)/);
    expect(summary).toContain("One return: 2025-04-01 to 2026-03-31.");
    expect(summary).toContain("hmrc_business_rules#1 passed");
    expect(JSON.parse(json!)).toEqual(VALID);
  });

  it("summarises each problem with its field, code, HMRC rule and return", async () => {
    reply = RULE_BROKEN;
    const result = await call("validate_ct600", CT600);
    expect(result.structuredContent).toMatchObject({ valid: false, problems: RULE_BROKEN.problems });
    expect(texts(result)[0]).toContain("- return (return 1): AUTHORITY_RULE rule 9012: The period is longer than 12 months");
    expect(texts(result)[0]).toMatch(/^NOT VALID: 1 problem\(s\)/);
  });

  it("validate_accounts: never passes on a credential, even one a message quotes; the log has no secret either", async () => {
    reply = INVALID;
    const result = await call("validate_accounts", ACCOUNTS);
    expect(received.map((request) => request.url)).toEqual(["/api/v1/filings/accounts/validate"]);
    expect(result.structuredContent).toMatchObject({ valid: false, problems: [{ message: "code [redacted] is not for this company" }] });
    expect(JSON.stringify(result)).not.toContain(AUTH_CODE);
    expect(logLines.join("")).toMatch(/"tool":"validate_accounts"/);
    expect(logLines.join("")).not.toContain(AUTH_CODE);
    expect(logLines.join("")).not.toContain(PASSWORD);
  });

  it("refuses arguments that break the contract before any request, naming the field", async () => {
    const result = await call("validate_ct600", { ...CT600, utr: "12" });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/Input validation error[\s\S]*at utr/);
    expect(texts(result).join("")).not.toContain(PASSWORD);
    expect(received).toEqual([]);
    const withKey = await call("validate_accounts", { ...ACCOUNTS, idempotency_key: "k-1" });
    expect(withKey.isError).toBe(true);
    expect(received).toEqual([]);
  });
});
