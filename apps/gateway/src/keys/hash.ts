import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";

/**
 * Hashes API key secrets for storage and checks presented secrets against stored hashes.
 *
 * Secrets are 256 random bits, so a slow password hash (bcrypt, scrypt) would buy nothing against
 * guessing and would cost milliseconds on every request. HMAC-SHA256 under a server-side pepper
 * means a copy of the database alone does not even allow testing a candidate secret.
 */
export interface SecretHasher {
  /** Hex HMAC-SHA256 of the secret: what the `secret_hash` column stores. */
  hash(secret: string): string;
  /** Constant-time comparison of the presented secret's hash with a stored hash. */
  matches(secret: string, storedHash: string): boolean;
}

const DIGEST_BYTES = 32;

export function createSecretHasher(pepper: string): SecretHasher {
  if (pepper.length < 32) throw new Error("the API key pepper must be at least 32 characters");
  // The pepper as a key object once: HMAC with a string key imports the key on every call.
  const key = createSecretKey(Buffer.from(pepper, "utf8"));
  const digest = (secret: string) => createHmac("sha256", key).update(secret, "utf8").digest();
  return {
    hash: (secret) => digest(secret).toString("hex"),
    matches(secret, storedHash) {
      const presented = digest(secret);
      const stored = Buffer.from(storedHash, "hex");
      // The stored value's length is ours, not the caller's: failing early here leaks nothing.
      if (stored.length !== DIGEST_BYTES) return false;
      return timingSafeEqual(presented, stored);
    },
  };
}
