import { createHash, randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `<prefix>_` and `length` random base62 characters (rejection sampling: no modulo bias). */
export function newId(prefix: "we" | "wd" | "evt", length = 22): string {
  let id = "";
  while (id.length < length) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && id.length < length) id += ALPHABET[byte % 62];
    }
  }
  return `${prefix}_${id}`;
}

/** A filing event's webhook id: derived from its bus message id, so a redelivery is the same event. */
export function eventIdForMessage(messageId: string): string {
  const plain = messageId.replace(/[^A-Za-z0-9]/g, "");
  // Bus message ids are UUIDs (32 characters once the dashes are gone); anything else is hashed.
  if (plain.length === messageId.replace(/-/g, "").length && plain.length >= 16 && plain.length <= 60) return `evt_${plain}`;
  return `evt_${createHash("sha256").update(messageId).digest("hex").slice(0, 40)}`;
}

/**
 * The internal key of a sandbox event: a hash of the account, the mode and its webhook id. The
 * gateway derives a sandbox event's id from the sandbox filing id, which two accounts sending the
 * same Idempotency-Key and body share; every other event id is globally unique (bus message ids,
 * random test events) and is its own key.
 */
export function sandboxEventKey(accountId: string, mode: "live" | "test", webhookId: string): string {
  return `evt_key_${createHash("sha256").update(`${accountId}\n${mode}\n${webhookId}`).digest("hex").slice(0, 40)}`;
}
