import { createServer, type Server } from "node:http";
import type { Logger } from "@dormant/service-kit";
import { type McpEnv, mcpEnvSchema } from "../env.ts";
import { createMcpApp } from "./app.ts";
import { SessionStore } from "./sessions.ts";

export interface McpHttpServer {
  /** `http://host:port` the server listens on (the endpoint is `${url}/mcp`). */
  url: string;
  port: number;
  sessions: SessionStore;
  /** Stops taking connections, closes every session, waits for the server to close. */
  close(): Promise<void>;
}

/** Starts the Streamable HTTP MCP server on MCP_HOST:MCP_PORT (0 picks a free port). */
export async function startMcpHttpServer(
  config: Pick<McpEnv, "MCP_HOST" | "MCP_PORT" | "DORMANT_API_URL" | "MCP_SESSION_IDLE_MS" | "MCP_MAX_SESSIONS"> &
    Partial<
      Pick<
        McpEnv,
        "MCP_MAX_SESSIONS_PER_KEY" | "MCP_ALLOWED_HOSTS" | "MCP_ALLOWED_ORIGINS" | "MCP_TRUST_PROXY_HOPS" | "MCP_CLIENT_ADDRESS_SECRET"
      >
    >,
  { logger, isAcceptingWork }: { logger: Logger; isAcceptingWork: () => boolean },
): Promise<McpHttpServer> {
  const sessions = new SessionStore(config.MCP_SESSION_IDLE_MS);
  const defaults = mcpEnvSchema.parse({});
  const app = createMcpApp({
    apiUrl: config.DORMANT_API_URL,
    logger,
    sessions,
    maxSessions: config.MCP_MAX_SESSIONS,
    maxSessionsPerKey: config.MCP_MAX_SESSIONS_PER_KEY ?? defaults.MCP_MAX_SESSIONS_PER_KEY,
    allowedHosts: config.MCP_ALLOWED_HOSTS ?? defaults.MCP_ALLOWED_HOSTS,
    allowedOrigins: config.MCP_ALLOWED_ORIGINS ?? defaults.MCP_ALLOWED_ORIGINS,
    trustProxyHops: config.MCP_TRUST_PROXY_HOPS ?? defaults.MCP_TRUST_PROXY_HOPS,
    clientAddressSecret: config.MCP_CLIENT_ADDRESS_SECRET,
    isAcceptingWork,
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.MCP_PORT, config.MCP_HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.MCP_PORT;
  const host = config.MCP_HOST === "0.0.0.0" ? "localhost" : config.MCP_HOST;
  return {
    url: `http://${host}:${port}`,
    port,
    sessions,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await sessions.closeAll();
      server.closeAllConnections();
      await closed;
    },
  };
}
