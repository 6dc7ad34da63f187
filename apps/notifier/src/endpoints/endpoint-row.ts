import {
  openSealedSecret,
  SealedSecret,
  type SealingKey,
  sealSecret,
  type WebhookEndpoint,
  type WebhookEventType,
} from "@dormant/contracts";

/** An endpoints row as the notifier's statements read it. */
export interface EndpointRow {
  id: string;
  account_id: string;
  mode: "live" | "test";
  url: string;
  events: string[];
  description: string | null;
  secret_sealed: unknown;
  previous_secret_sealed: unknown;
  previous_until: Date | null;
  status: "enabled" | "disabled";
  disabled_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
  deleted_at: Date | null;
}

/** The public view (no secret, ever). */
export function endpointView(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    ...(row.description ? { description: row.description } : {}),
    status: row.status,
    ...(row.disabled_at ? { disabled_at: row.disabled_at.toISOString() } : {}),
    ...(row.disabled_reason ? { disabled_reason: row.disabled_reason } : {}),
    created_at: row.created_at.toISOString(),
  };
}

/** What a sealed secret is bound to: it opens only as the secret of that endpoint. */
const binding = (endpointId: string) => `webhook-endpoint-secret:${endpointId}`;

export function sealEndpointSecret(secret: string, endpointId: string, key: SealingKey): SealedSecret {
  return sealSecret(secret, key, binding(endpointId));
}

export function openEndpointSecret(sealed: unknown, endpointId: string, keys: readonly SealingKey[]): string {
  const value = openSealedSecret(SealedSecret.parse(sealed), keys, binding(endpointId));
  if (typeof value !== "string") throw new Error(`the sealed secret of ${endpointId} is not a string`);
  return value;
}

/** The secrets that sign an attempt now: the current one, and the previous one during its overlap. */
export function signingSecrets(row: EndpointRow, keys: readonly SealingKey[], now: Date): string[] {
  const secrets = [openEndpointSecret(row.secret_sealed, row.id, keys)];
  if (row.previous_secret_sealed && row.previous_until && row.previous_until > now)
    secrets.push(openEndpointSecret(row.previous_secret_sealed, row.id, keys));
  return secrets;
}
