import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { z } from "zod";
import { AppError } from "../errors.ts";

/**
 * Third-party secrets (gateway passwords, company authentication codes) never travel on the bus
 * in clear: the gateway seals them with AES-256-GCM under a key shared with the services that
 * must use them, bound (additional authenticated data) to the request they belong to, so a
 * sealed value copied into another message does not open.
 */
const Base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be base64");

export const SealedSecret = z.object({
  alg: z.literal("A256GCM"),
  /** Which key sealed it, so keys can be rotated. */
  kid: z.string().min(1).max(64),
  iv: Base64,
  tag: Base64,
  ciphertext: Base64,
});
export type SealedSecret = z.infer<typeof SealedSecret>;

/**
 * The sealing key every service uses outside production when none is configured, so that a fresh
 * clone works without setup. Production refuses to start without a real key.
 */
export const DEVELOPMENT_SEALING_KEY = { id: "dev", base64: "ZG9ybWFudC1kZXZlbG9wbWVudC1zZWFsaW5nLWtleSE=" } as const;

export interface SealingKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

/** Reads a sealing key from its base64 text (32 bytes), e.g. from an environment variable. */
export function sealingKeyFromBase64(id: string, base64: string): SealingKey {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new Error(`sealing key "${id}" must be 32 bytes of base64 (got ${key.length} bytes)`);
  return { id, key };
}

/** The settings of a service's sealing keys, as read from its environment, and the variables they came from. */
export interface SealingKeySettings {
  production: boolean;
  /** The current key (base64 of 32 bytes) and its id; absent: the development key outside production. */
  current?: string | undefined;
  currentId: string;
  /** Retired keys still needed to open what they sealed: `id:base64` pairs separated by commas. */
  retired?: string | undefined;
  /** The variables' names, for the problems (never their values). */
  names: { current: string; retired: string };
}

/**
 * Every key a service may open sealed values with, the current one first (it seals), and the
 * problems found: production without a current key, a key that is not 32 bytes of base64, a
 * retired entry that is not `id:base64`. Problems name the variable, never its value.
 */
export function sealingKeysFromSettings(settings: SealingKeySettings): { keys: SealingKey[]; problems: string[] } {
  const { names } = settings;
  const keys: SealingKey[] = [];
  const problems: string[] = [];
  if (settings.current) {
    try {
      keys.push(sealingKeyFromBase64(settings.currentId, settings.current));
    } catch {
      problems.push(`${names.current}: must be 32 bytes, base64-encoded`);
    }
  } else if (settings.production) {
    problems.push(`${names.current}: required in production`);
  } else {
    keys.push(sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64));
  }
  const retired = (settings.retired ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  retired.forEach((entry, index) => {
    const separator = entry.indexOf(":");
    try {
      if (separator < 1) throw new Error("no id");
      keys.push(sealingKeyFromBase64(entry.slice(0, separator), entry.slice(separator + 1)));
    } catch {
      problems.push(`${names.retired}: entry ${index + 1} must be id:base64 of 32 bytes`);
    }
  });
  return { keys, problems };
}

/**
 * GCM's tag is 16 bytes. It is pinned on both sides: a tag cut short is a prefix of the right one
 * and would verify unless the length is fixed, leaving a forger only a few bytes to guess.
 */
export const SEALED_TAG_BYTES = 16;

export function sealSecret(value: unknown, key: SealingKey, boundTo: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.key, iv, { authTagLength: SEALED_TAG_BYTES });
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return {
    alg: "A256GCM",
    kid: key.id,
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    ciphertext: ciphertext.toString("base64"),
  };
}

/**
 * Opens a sealed secret; throws when the key is unknown, the tag is not 16 bytes, or the value or
 * its binding was altered.
 */
export function openSealedSecret(sealed: SealedSecret, keys: readonly SealingKey[], boundTo: string): unknown {
  const key = keys.find((k) => k.id === sealed.kid);
  if (!key) throw new Error(`no sealing key "${sealed.kid}"`);
  const tag = Buffer.from(sealed.tag, "base64");
  if (tag.length !== SEALED_TAG_BYTES) throw new Error(`the sealed value's tag must be ${SEALED_TAG_BYTES} bytes (got ${tag.length})`);
  const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(sealed.iv, "base64"), { authTagLength: SEALED_TAG_BYTES });
  decipher.setAAD(Buffer.from(boundTo, "utf8"));
  decipher.setAuthTag(tag);
  const plain = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, "base64")), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as unknown;
}

/**
 * Opens credentials sealed for `boundTo` (`credentialsBinding` or `submissionBinding`) and checks
 * them against `schema`, in memory only. A value that does not open (another key, another binding,
 * altered) or does not have the schema's shape is the platform's fault, not the caller's:
 * INTERNAL_ERROR, not retryable, with nothing of the value in the message.
 */
export function openSealedCredentials<S extends z.ZodType>(
  sealed: SealedSecret,
  keys: readonly SealingKey[],
  boundTo: string,
  schema: S,
): z.output<S> {
  let value: unknown;
  try {
    value = openSealedSecret(sealed, keys, boundTo);
  } catch {
    throw new AppError("INTERNAL_ERROR", "the sealed credentials could not be opened for this binding", { retryable: false });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("INTERNAL_ERROR", "the sealed credentials do not have the expected shape", { retryable: false });
  return parsed.data;
}
