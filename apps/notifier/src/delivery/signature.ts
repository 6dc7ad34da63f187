import { createHmac, randomBytes } from "node:crypto";

/** A new Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,` + base64 HMAC-SHA256, keyed with the
 * base64-decoded part of the secret after `whsec_`, over `${id}.${timestamp}.${body}`. Several
 * secrets (a rotation's old one, still valid for a day) give several signatures, space-separated.
 */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
    })
    .join(" ");
}
