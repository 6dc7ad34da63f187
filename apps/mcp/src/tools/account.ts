import { CompanyNumber } from "@dormant/contracts";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { jsonResult } from "../results.ts";
import { type ToolContext, runTool } from "./context.ts";

export function registerAccountTools(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "get_account",
    {
      title: "Get the account's balance and limits",
      description:
        "The calling key's account: balance, held (fees reserved for filings in progress), available (what a new live submit can use: each needs 20.00 GBP) and rate limits. Check available before live submits; below 20.00 a submit fails with INSUFFICIENT_BALANCE.",
      inputSchema: z.strictObject({}),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => runTool(context, "get_account", async () => jsonResult(await context.client.account.get())),
  );

  server.registerTool(
    "get_deadlines",
    {
      title: "Get a company's filing deadlines",
      description:
        "A company's current and next accounts periods with their registry due dates, the CT600 periods and filing deadlines within them, whether each is overdue, and this key's filings for each period. Use it to choose period_end before a submit and to see what is still to file. VALIDATION_ERROR on company_number: the registry does not know the company; REGISTRY_UNAVAILABLE: retry later.",
      inputSchema: z.strictObject({ company_number: CompanyNumber }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ company_number }) =>
      runTool(context, "get_deadlines", async () => jsonResult(await context.client.companies.deadlines(company_number))),
  );
}
