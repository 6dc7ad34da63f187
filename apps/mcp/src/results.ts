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

/** The string values of secret fields (passwords, authentication codes, keys) anywhere in `value`, e.g. a tool's arguments. */
export function secretValuesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(secretValuesOf);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    SECRET_FIELDS.has(key) && typeof item === "string" ? [item] : secretValuesOf(item),
  );
}

/**
 * A copy of `value` whose strings no longer contain any of `secrets` (replaced by `[redacted]`):
 * for answers built from the caller's own arguments (a validation's problem messages), where a
 * value could be quoted back. Secrets shorter than 4 characters are not searched for.
 */
export function withoutSecretValues(value: unknown, secrets: readonly string[]): unknown {
  const searched = secrets.filter((secret) => secret.length >= 4);
  if (searched.length === 0) return value;
  const scrub = (item: unknown): unknown => {
    if (typeof item === "string") return searched.reduce((text, secret) => text.split(secret).join("[redacted]"), item);
    if (Array.isArray(item)) return item.map(scrub);
    if (typeof item !== "object" || item === null) return item;
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, scrub(entry)]));
  };
  return scrub(value);
}

/** Pretty JSON text content, secrets removed. */
export function jsonText(value: unknown): TextContent {
  return { type: "text", text: JSON.stringify(withoutSecrets(value), null, 2) };
}

/** A successful tool result carrying one JSON value. */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [jsonText(value)] };
}
