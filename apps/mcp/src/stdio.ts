// The MCP server over stdio (`npm run --silent mcp`): one caller, whose key is DORMANT_API_KEY.
// stdout carries the protocol, so every log line goes to stderr.
import { DormantClient } from "@dormant/client";
import { createLogger } from "@dormant/service-kit";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadStdioConfig } from "./env.ts";
import { createMcpServer } from "./server.ts";

const logger = createLogger({ service: "mcp-stdio", destination: process.stderr });

try {
  const config = loadStdioConfig();
  const client = new DormantClient({ apiKey: config.DORMANT_API_KEY, baseUrl: config.DORMANT_API_URL });
  const server = createMcpServer({ client, apiKey: config.DORMANT_API_KEY, logger });
  const transport = new StdioServerTransport();
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  logger.info({ api: config.DORMANT_API_URL }, "MCP server (stdio) ready");
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void server.close().finally(() => process.exit(0)));
} catch (error) {
  logger.fatal(
    { err: error instanceof Error ? { name: error.name, message: error.message } : "unknown" },
    "MCP server (stdio) could not start",
  );
  process.exitCode = 1;
}
