import { FilingWaitTimeoutError, recommendedPollInterval } from "@dormant/client";
import { ListFilingsQuery, PAGE_SIZE } from "@dormant/contracts";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { jsonResult } from "../results.ts";
import { type ToolContext, runTool } from "./context.ts";
import { progressReporter } from "./progress.ts";

const filingId = z.string().min(1).max(128).describe("The filing's id (fil_...), as a submit or list_filings answered it.");

/** The API's list filters as they are, with the page numbers as JSON integers rather than query text. */
export const listFilingsInput = ListFilingsQuery.pick({ status: true, type: true, company_number: true }).extend({
  limit: z.number().int().min(1).max(PAGE_SIZE.max).optional().describe(`Page size, 1 to ${PAGE_SIZE.max} (default ${PAGE_SIZE.default}).`),
  offset: z.number().int().min(0).optional().describe("Filings to skip (default 0)."),
});

export const WAIT_MAX_SECONDS = 600;
export const waitForFilingInput = z.strictObject({
  filing_id: filingId,
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(WAIT_MAX_SECONDS)
    .default(120)
    .describe(`How long to wait at most, 1 to ${WAIT_MAX_SECONDS} seconds (default 120).`),
});

/** Polls often at first (the simulator and the sandbox answer in seconds), then as the API advises. */
export function waitPollInterval(elapsedMs: number): number {
  return elapsedMs < 60_000 ? 2_000 : recommendedPollInterval(elapsedMs);
}

export function registerFilingTools(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "get_filing",
    {
      title: "Get a filing",
      description:
        "The filing's current status (pending, submitted, accepted, rejected, error), its authority references, the values used, and on rejection or error the authority's code and message (error.code, error.message). For a split CT600, each part's status. FILING_NOT_FOUND: no such filing for this key.",
      inputSchema: z.strictObject({ filing_id: filingId }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ filing_id }) => runTool(context, "get_filing", async () => jsonResult(await context.client.filings.get(filing_id))),
  );

  server.registerTool(
    "list_filings",
    {
      title: "List filings",
      description:
        "This API key's filings, newest first, optionally filtered by status, type (ct600, accounts) and company_number, paged by limit and offset (pagination.has_more says whether more follow). Use it to find a filing_id or to check whether a period was already filed before submitting.",
      inputSchema: listFilingsInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (query) => runTool(context, "list_filings", async () => jsonResult(await context.client.filings.list(query))),
  );

  server.registerTool(
    "wait_for_filing",
    {
      title: "Wait for a filing's outcome",
      description:
        "Waits until the filing is final (accepted, rejected or error) or timeout_seconds pass, polling the API, and answers the filing. Sends MCP progress notifications at each status change when the request has a progressToken. A sandbox filing (test key) is final at once; a live one usually within minutes. If the time runs out the result says final: false with the last status seen: call wait_for_filing again. Once accepted, call list_documents. A rejected or error filing carries error.code and error.message: explain them to the user; a corrected filing is a new submit.",
      inputSchema: waitForFilingInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ filing_id, timeout_seconds }, extra) =>
      runTool(context, "wait_for_filing", async () => {
        const { onProgress, flushed } = progressReporter(extra);
        try {
          const filing = await context.client.filings.waitForFinal(filing_id, {
            timeoutMs: timeout_seconds * 1000,
            pollIntervalMs: waitPollInterval,
            // The client cancelled the call (notifications/cancelled) or went away: stop polling.
            signal: extra.signal,
            ...(onProgress ? { onProgress } : {}),
          });
          await flushed();
          return jsonResult({ final: true, filing });
        } catch (error) {
          if (!(error instanceof FilingWaitTimeoutError)) throw error;
          await flushed();
          return jsonResult({
            final: false,
            waited_seconds: timeout_seconds,
            last_status: error.lastSeen?.status ?? null,
            filing: error.lastSeen ?? null,
            next_step: "Not final yet: call wait_for_filing again.",
          });
        }
      }),
  );
}
