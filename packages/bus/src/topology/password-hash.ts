import { createHash, randomBytes } from "node:crypto";

/** The hashing algorithm of RabbitMQ's internal users since 3.6 (and its default). */
export const RABBIT_HASHING_ALGORITHM = "rabbit_password_hashing_sha256";

/**
 * A password as RabbitMQ's definitions carry it (`password_hash`): base64 of a 4-byte salt
 * followed by SHA-256(salt ‖ UTF-8 password). The clear password never enters the file.
 */
export function rabbitPasswordHash(password: string, salt: Buffer = randomBytes(4)): string {
  if (salt.length !== 4) throw new Error("RabbitMQ password salts are 4 bytes");
  const digest = createHash("sha256").update(salt).update(password, "utf8").digest();
  return Buffer.concat([salt, digest]).toString("base64");
}
