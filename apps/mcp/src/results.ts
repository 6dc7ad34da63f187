import type { CallToolResult, TextContent } from "@modelcontextprotocol/sdk/types.js";

/** Field names whose values never leave this server, at any depth of a result. */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "credentials",
  "government_gateway_password",
  "company_auth_code",
  "password",
  "api_key",
  "apiKey",
  "authorization",
  "x-api-key",
]);

/** A copy of `value` without any secret field (the API never echoes them; this makes sure). */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!SECRET_FIELDS.has(key)) copy[key] = withoutSecrets(item);
  }
  return copy;
}

/** Pretty JSON text content, secrets removed. */
export function jsonText(value: unknown): TextContent {
  return { type: "text", text: JSON.stringify(withoutSecrets(value), null, 2) };
}

/** A successful tool result carrying one JSON value. */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [jsonText(value)] };
}
