import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { keyDigest } from "./api-key.ts";
import { type Session, SessionStore } from "./sessions.ts";

function session(lastUsedAt: number): Session {
  return {
    transport: new StreamableHTTPServerTransport(),
    server: new McpServer({ name: "t", version: "1" }),
    keyDigest: keyDigest("api_test_x"),
    caller: { address: "127.0.0.1" },
    lastUsedAt,
  };
}

describe("SessionStore", () => {
  it("closes the sessions unused for longer than the idle time, and keeps the others", async () => {
    let now = 1_000_000;
    const store = new SessionStore(60_000, () => now);
    store.add("old", session(now));
    store.add("recent", session(now));
    now += 50_000;
    expect(store.use("recent")).toBeDefined();
    now += 20_000;
    expect(await store.closeIdle()).toBe(1);
    expect(store.use("old")).toBeUndefined();
    expect(store.use("recent")).toBeDefined();
    await store.closeAll();
    expect(store.size).toBe(0);
  });
});
