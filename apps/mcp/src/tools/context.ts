import type { DormantClient } from "@dormant/client";
import type { Logger } from "@dormant/service-kit";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toolError } from "../errors.ts";

/** What every tool of one MCP session uses: the caller's client, its key (for derived idempotency keys) and the log. */
export interface ToolContext {
  client: DormantClient;
  apiKey: string;
  logger: Logger;
}

/**
 * Runs one tool call: its result, or its error as a tool error result. The log line names the
 * tool, its outcome and duration, never its arguments (they carry passwords and authentication
 * codes) nor its result.
 */
export async function runTool(context: ToolContext, tool: string, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  const started = performance.now();
  try {
    const result = await call();
    context.logger.info({ tool, ms: Math.round(performance.now() - started), ok: !result.isError }, "tool call");
    return result;
  } catch (error) {
    const result = toolError(error);
    const code = error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "API_UNREACHABLE";
    context.logger.warn({ tool, ms: Math.round(performance.now() - started), ok: false, code }, "tool call failed");
    return result;
  }
}
