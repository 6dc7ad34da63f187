// The MCP server over Streamable HTTP (`npm start`): `/mcp` on MCP_PORT, each session
// authenticated by the caller's own API key; graceful shutdown closes every session.
import { runServiceProcess } from "@dormant/service-kit";
import { loadMcpConfig } from "./env.ts";
import { startMcpHttpServer } from "./http/listen.ts";

const config = loadMcpConfig();
await runServiceProcess({ service: "mcp", config }, async ({ logger, shutdown }) => {
  const server = await startMcpHttpServer(config, { logger, isAcceptingWork: () => !shutdown.stopping });
  shutdown.add("mcp http server", () => server.close());
  logger.info({ port: server.port, api: config.DORMANT_API_URL }, `MCP server (Streamable HTTP) listening on ${server.url}/mcp`);
  if (!config.MCP_CLIENT_ADDRESS_SECRET)
    logger.warn("MCP_CLIENT_ADDRESS_SECRET is not set: the gateway counts every MCP caller's failed authentications as this server's");
});
