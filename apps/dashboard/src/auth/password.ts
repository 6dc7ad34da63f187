import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Password hashing with Node's built-in scrypt (memory-hard). N = 2^15, r = 8, p = 1 needs
 * 128 * N * r = 32 MiB per hash and about 50-100 ms on this machine; maxmem allows 64 MiB. The
 * stored form carries the parameters, so they can be raised later and old hashes still verify:
 * `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>` (16-byte salt, 32-byte hash).
 */
export const SCRYPT_PARAMS = { log2N: 15, r: 8, p: 1, keyLength: 32, saltLength: 16, maxmem: 64 * 1024 * 1024 } as const;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** log2N, r, p, maxmem: SCRYPT_PARAMS.maxmem };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { log2N, r, p, keyLength, saltLength } = SCRYPT_PARAMS;
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, log2N, r, p, keyLength);
  return ["scrypt", log2N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

/** Whether `password` matches `stored` (compared in constant time); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4] ?? "", "base64");
  const expected = Buffer.from(parts[5] ?? "", "base64");
  if (![log2N, r, p].every(Number.isInteger) || log2N > 20 || expected.length === 0) return false;
  const key = await derive(password, salt, log2N, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

/** A hash no password matches, verified when the email is unknown so both answers take as long. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString("base64"));
  return dummyHash;
}
