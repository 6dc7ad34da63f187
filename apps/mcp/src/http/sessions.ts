import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallerAddress } from "./caller-address.ts";

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** SHA-256 of the API key the session was opened with: every later request must carry the same key. */
  keyDigest: Buffer;
  /** Where the session's latest request came from (signed onto its API calls for the gateway). */
  caller: CallerAddress;
  lastUsedAt: number;
}

/**
 * The open Streamable HTTP sessions by session id. A session unused for `idleMs` is closed by a
 * sweep (its transport and server, and with them the key's client), as is every session at stop.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(1000, Math.min(idleMs / 4, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Open sessions of the key with this digest. */
  countFor(keyDigest: Buffer): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.keyDigest.equals(keyDigest)) count++;
    return count;
  }

  add(id: string, session: Session): void {
    this.sessions.set(id, session);
  }

  /** The session, marked as used now. */
  use(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastUsedAt = this.now();
    return session;
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  async closeIdle(): Promise<number> {
    const cutoff = this.now() - this.idleMs;
    const idle = [...this.sessions].filter(([, session]) => session.lastUsedAt < cutoff);
    await Promise.all(idle.map(([id, session]) => this.close(id, session)));
    return idle.length;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions].map(([id, session]) => this.close(id, session)));
  }

  private async close(id: string, session: Session): Promise<void> {
    this.sessions.delete(id);
    await session.server.close().catch(() => undefined);
  }
}
