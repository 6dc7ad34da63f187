import { AccountsSubmitRequest, Ct600SubmitRequest } from "@dormant/contracts";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { MAX_IDEMPOTENCY_KEY_LENGTH, submitIdempotencyKey } from "../idempotency.ts";
import { jsonResult } from "../results.ts";
import { type ToolContext, runTool } from "./context.ts";

const idempotencyKey = z
  .string()
  .min(1)
  .max(MAX_IDEMPOTENCY_KEY_LENGTH)
  .optional()
  .describe(
    "Optional. Your own Idempotency-Key (1-64 characters). Without it, identical arguments within 24 hours return the first submit's filing instead of filing again; pass a fresh key only to file the same data a second time on purpose.",
  );

const COMMON = `With a live key (api_live_...) this FILES FOR REAL with the authority and costs 20.00 GBP, charged only if the authority accepts it; a test key (api_test_...) files nothing and charges nothing (sandbox: the company number decides the outcome). Validate first: call the matching validate_ tool with the same arguments (free, files nothing) and submit only when it answers valid: true; check the arguments with the user before a live submit. The answer is 202-style: status "submitted" (or the sandbox's final status); call wait_for_filing with the filing_id for the outcome. Idempotent: calling again with identical arguments within 24 hours returns the same filing and is never charged twice (the result shows the idempotency_key used). Errors: VALIDATION_ERROR lists each bad field in details (fix and retry, nothing filed); INSUFFICIENT_BALANCE means the account cannot cover the 20.00 GBP fee (ask the owner to top up); *_UNAVAILABLE means retry later with the same arguments; IDEMPOTENCY_KEY_CONFLICT means your idempotency_key was used for different arguments.`;

/** Input schemas: the API's own request contracts, plus the optional idempotency key. */
export const submitCt600Input = Ct600SubmitRequest.safeExtend({ idempotency_key: idempotencyKey });
export const submitAccountsInput = AccountsSubmitRequest.safeExtend({ idempotency_key: idempotencyKey });

export function registerSubmitTools(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "submit_ct600",
    {
      title: "Submit a nil CT600 return",
      description: `Files a dormant company's nil corporation-tax return (CT600) with the tax authority for the accounting period ending period_end. Validate first with validate_ct600 (same arguments, no idempotency_key). Company data (name, period start, declarant) is derived from the registry unless overridden; a period over 12 months is filed as two returns (period_split). Needs the company's 10-digit UTR and the agent's Government Gateway credentials (used once, never stored, logged or returned). ${COMMON} TAX_AUTH_FAILED means the tax authority refused the Government Gateway credentials: ask the user for the right ones.`,
      inputSchema: submitCt600Input,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true, readOnlyHint: false },
    },
    (args) =>
      runTool(context, "submit_ct600", async () => {
        const { key, body } = submitIdempotencyKey(context.apiKey, "submit_ct600", args);
        const data = await context.client.filings.submitCt600(body, { idempotencyKey: key });
        return jsonResult({ ...data, idempotency_key: key });
      }),
  );

  server.registerTool(
    "submit_accounts",
    {
      title: "Submit dormant company accounts",
      description: `Files a dormant company's accounts with the company registry for the period ending period_end (the balance sheet date). Validate first with validate_accounts (same arguments, no idempotency_key). Everything not given (name, period start, director, approval date, balance sheet) is derived from the registry's data; a balance sheet given must balance: cash - creditors = share_capital + profit_loss_account. Needs the company's 6-character authentication code (used once, never stored, logged or returned). ${COMMON}`,
      inputSchema: submitAccountsInput,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true, readOnlyHint: false },
    },
    (args) =>
      runTool(context, "submit_accounts", async () => {
        const { key, body } = submitIdempotencyKey(context.apiKey, "submit_accounts", args);
        const data = await context.client.filings.submitAccounts(body, { idempotencyKey: key });
        return jsonResult({ ...data, idempotency_key: key });
      }),
  );
}
