import { randomUUID } from "node:crypto";
import { DormantApiError, DormantClient } from "@dormant/client";
import type { Logger } from "@dormant/service-kit";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Request, Response } from "express";
import { createMcpServer } from "../server.ts";
import { apiKeyOf, keyDigest, sameKey } from "./api-key.ts";
import { type CallerAddress, callerAddressFetch } from "./caller-address.ts";
import type { SessionStore } from "./sessions.ts";

export interface McpEndpointDeps {
  apiUrl: string;
  logger: Logger;
  sessions: SessionStore;
  maxSessions: number;
  /** Open sessions at most per API key (MCP_MAX_SESSIONS_PER_KEY). */
  maxSessionsPerKey: number;
  /** Signs the caller's address onto the API calls (MCP_CLIENT_ADDRESS_SECRET); unset: not sent. */
  clientAddressSecret?: string | undefined;
}

/** A JSON-RPC error answer with no id (the request is refused before the protocol sees it). */
function refuse(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set(headers)
    .json({ jsonrpc: "2.0", error: { code: -32001, message }, id: null });
}

const NO_KEY = "An API key is required: send X-API-Key: <key> or Authorization: Bearer <key>.";

/**
 * `POST|GET|DELETE /mcp`. Every request carries the caller's API key. An initialize without a
 * session id opens a session once the API has accepted the key (GET /account); the session's
 * tools call the API with a client built on that key, and every later request of the session
 * must carry the same key. A request without a key is 401 and opens nothing.
 *
 * Sessions are limited in all (`maxSessions`: 503) and per key (`maxSessionsPerKey`: 429), counting
 * the sessions still being opened, so that one key cannot take every session of the server. The
 * caller's address (`req.ip`, behind MCP_TRUST_PROXY_HOPS proxies) goes signed with every API call
 * of its session when a secret is set: the gateway's failed-authentication limit then counts per
 * MCP caller, not once for everyone behind this server.
 */
export function createMcpHandler(deps: McpEndpointDeps) {
  let opening = 0;
  const openingPerKey = new Map<string, number>();

  async function open(req: Request, res: Response, apiKey: string): Promise<void> {
    const digest = keyDigest(apiKey);
    const slot = digest.toString("hex");
    if (deps.sessions.size + opening >= deps.maxSessions)
      return refuse(res, 503, "Too many open sessions; try again later.", { "Retry-After": "30" });
    if (deps.sessions.countFor(digest) + (openingPerKey.get(slot) ?? 0) >= deps.maxSessionsPerKey)
      return refuse(
        res,
        429,
        `This API key already has ${deps.maxSessionsPerKey} open sessions, the most allowed: end one (DELETE /mcp with its Mcp-Session-Id) or let one expire, then initialize again.`,
        { "Retry-After": "30" },
      );
    opening++;
    openingPerKey.set(slot, (openingPerKey.get(slot) ?? 0) + 1);
    try {
      await openSession(req, res, apiKey, digest);
    } finally {
      opening--;
      const left = (openingPerKey.get(slot) ?? 1) - 1;
      if (left === 0) openingPerKey.delete(slot);
      else openingPerKey.set(slot, left);
    }
  }

  async function openSession(req: Request, res: Response, apiKey: string, digest: Buffer): Promise<void> {
    const caller: CallerAddress = { address: addressOf(req) };
    const signing = callerAddressFetch(deps.clientAddressSecret, caller);
    const client = new DormantClient({ apiKey, baseUrl: deps.apiUrl, ...(signing ? { fetch: signing } : {}) });
    try {
      await client.account.get();
    } catch (error) {
      if (error instanceof DormantApiError && error.status === 401) return refuse(res, 401, `The API refused the key (${error.code}).`);
      if (error instanceof DormantApiError && error.status === 429)
        return refuse(res, 429, `The API refused the key for now (${error.code}); try again later.`, {
          "Retry-After": String(error.retryAfterSeconds ?? 60),
        });
      deps.logger.warn({ code: error instanceof DormantApiError ? error.code : "API_UNREACHABLE" }, "could not check a session's key");
      return refuse(res, 503, "The filing API is unavailable; try again later.", { "Retry-After": "10" });
    }
    const server = createMcpServer({ client, apiKey, logger: deps.logger });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        deps.sessions.add(id, { transport, server, keyDigest: digest, caller, lastUsedAt: Date.now() });
        deps.logger.info({ session: id.slice(0, 8), sessions: deps.sessions.size }, "mcp session opened");
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id === undefined) return;
      deps.sessions.remove(id);
      deps.logger.info({ session: id.slice(0, 8) }, "mcp session closed");
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  return async function handleMcp(req: Request, res: Response): Promise<void> {
    const apiKey = apiKeyOf(req.headers);
    if (apiKey === undefined) return refuse(res, 401, NO_KEY, { "WWW-Authenticate": 'Bearer realm="dormant-mcp"' });
    const sessionId = req.header("mcp-session-id");
    if (sessionId === undefined) {
      if (req.method === "POST" && isInitializeRequest(req.body)) return open(req, res, apiKey);
      return refuse(res, 400, "No session: start with an initialize request.");
    }
    const session = deps.sessions.use(sessionId);
    if (!session) return refuse(res, 404, "Unknown or expired session: initialize a new one.");
    if (!sameKey(session.keyDigest, apiKey)) return refuse(res, 403, "This session belongs to another API key.");
    session.caller.address = addressOf(req);
    await session.transport.handleRequest(req, res, req.body);
  };
}

/** The caller's address as Express sees it (X-Forwarded-For behind the trusted proxies). */
function addressOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}
