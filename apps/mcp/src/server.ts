import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerAccountTools } from "./tools/account.ts";
import type { ToolContext } from "./tools/context.ts";
import { registerDocumentTools } from "./tools/documents.ts";
import { registerFilingTools } from "./tools/filings.ts";
import { registerSubmitTools } from "./tools/submit.ts";
import { registerValidateTools } from "./tools/validate.ts";

export const SERVER_INFO = { name: "dormant-filing", version: "1.0.0" } as const;

const INSTRUCTIONS =
  "Files nil CT600 returns (tax authority) and dormant accounts (company registry) for dormant UK companies through the Dormant Filing API. Typical flow: get_deadlines to pick the period, validate_ct600 or validate_accounts with the arguments you mean to submit (free, files nothing; fix every problem it reports), get_account to check the balance, submit_ct600 or submit_accounts with the same arguments, wait_for_filing, then list_documents and get_document. A live key files for real and costs 20.00 GBP per accepted filing; a test key is a sandbox. Never repeat passwords or authentication codes back to the user.";

/** One MCP server (one per session): every tool, calling the API with the session's client. */
export function createMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, capabilities: { tools: {}, logging: {} } });
  registerValidateTools(server, context);
  registerSubmitTools(server, context);
  registerFilingTools(server, context);
  registerDocumentTools(server, context);
  registerAccountTools(server, context);
  return server;
}
