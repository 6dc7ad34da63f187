import { FORWARDED_ADDRESS_SECRET_MIN_LENGTH } from "@dormant/contracts";
import { baseEnvSchema, envPositiveInt, parseEnv } from "@dormant/service-kit";
import { z } from "zod";

/** Where the public API is: the gateway's `/api/v1` (a bare origin works too). */
const apiUrl = z.url().default("http://localhost:3000/api/v1");

/** A comma-separated list (spaces around items ignored, empty items dropped). */
const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text) =>
      text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== ""),
    );

/** Every setting of the MCP server's HTTP process (`npm start`), read once at boot. */
export const mcpEnvSchema = baseEnvSchema.extend({
  /** The Streamable HTTP endpoint `/mcp`, `/healthz` and `/readyz`. */
  MCP_PORT: z.coerce.number().int().min(0).max(65_535).default(3100),
  /** Loopback by default: an MCP endpoint is for the machine's own assistants unless ops say otherwise. */
  MCP_HOST: z.string().min(1).default("127.0.0.1"),
  DORMANT_API_URL: apiUrl,
  /** A session unused for this long is closed (its key forgotten). */
  MCP_SESSION_IDLE_MS: envPositiveInt(30 * 60_000),
  /** Open sessions at most; an initialize beyond it is answered 503. */
  MCP_MAX_SESSIONS: envPositiveInt(1000),
  /** Open sessions at most per API key; an initialize beyond it is answered 429. */
  MCP_MAX_SESSIONS_PER_KEY: envPositiveInt(10),
  /**
   * DNS-rebinding protection of `/mcp`: the Host names it answers to (port ignored; IPv6 in
   * brackets). Loopback names only by default: a deployment adds the name its clients use.
   */
  MCP_ALLOWED_HOSTS: list("localhost,127.0.0.1,[::1]"),
  /**
   * Browser origins allowed to call `/mcp` (`https://app.example.com`). A request with any other
   * Origin header is refused; requests without one (assistants, not browsers) are not affected.
   */
  MCP_ALLOWED_ORIGINS: list(""),
  /** Proxies in front of the MCP server whose X-Forwarded-For is trusted (0: use the socket address). */
  MCP_TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Shared with the gateway only: signs the caller's address on every API call, so the gateway
   * counts failed authentications per MCP caller, not one bucket for all. Unset: not sent.
   */
  MCP_CLIENT_ADDRESS_SECRET: z.string().min(FORWARDED_ADDRESS_SECRET_MIN_LENGTH).optional(),
});
export type McpEnv = z.infer<typeof mcpEnvSchema>;

/**
 * The HTTP process's settings. Without DORMANT_API_URL it calls the gateway of the same machine,
 * on the gateway's PORT when one is set (as `npm start` passes it to every app).
 */
export function loadMcpConfig(source: Record<string, string | undefined> = process.env): McpEnv {
  const local = source.PORT ? { DORMANT_API_URL: `http://localhost:${source.PORT}/api/v1` } : {};
  return parseEnv(mcpEnvSchema, { ...local, ...withoutEmpty(source) });
}

/** Unset and empty are the same: an empty DORMANT_API_URL does not hide the default. */
function withoutEmpty(source: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ""));
}

/** The stdio entry's settings: the caller's key and the API's address. */
export const stdioEnvSchema = baseEnvSchema.extend({
  DORMANT_API_KEY: z.string({ error: "is required: the API key every tool call uses" }).min(1, "must not be empty"),
  DORMANT_API_URL: apiUrl,
});
export type StdioEnv = z.infer<typeof stdioEnvSchema>;

export function loadStdioConfig(source: Record<string, string | undefined> = process.env): StdioEnv {
  return parseEnv(stdioEnvSchema, source);
}
