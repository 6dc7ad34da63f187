import type { Redis } from "ioredis";
import { hashToken, randomToken } from "./tokens.ts";

/**
 * What a session holds: the CSRF token, once signed in the user and the account, and before that
 * the idempotency key of the sign-up form it showed. Nothing else.
 */
export interface SessionData {
  csrf: string;
  userId?: string;
  accountId?: string;
  /** The sign-up form's `request_id` (the account creation's idempotency key): only this session's form may use it. */
  signupRequestId?: string;
  /** When the session was created (ms): the absolute expiry counts from it. */
  createdAt: number;
}

export interface Session {
  /** The cookie value (never logged; Redis keys use its SHA-256). */
  id: string;
  data: SessionData;
}

export interface SessionSettings {
  prefix: string;
  idleSeconds: number;
  absoluteSeconds: number;
}

/**
 * Sessions in Redis under `<prefix>session:<sha256(id)>`: a random 256-bit id, the idle expiry as
 * the key's TTL (renewed on every use) and the absolute expiry checked against `createdAt`.
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly settings: SessionSettings,
  ) {}

  private key(id: string): string {
    return `${this.settings.prefix}session:${hashToken(id)}`;
  }

  async create(fields: Omit<SessionData, "csrf" | "createdAt"> = {}): Promise<Session> {
    const session: Session = { id: randomToken(), data: { csrf: randomToken(), createdAt: Date.now(), ...fields } };
    await this.redis.set(this.key(session.id), JSON.stringify(session.data), "EX", this.settings.idleSeconds);
    return session;
  }

  /** Writes a changed session back (its idle expiry renewed). */
  async save(session: Session): Promise<void> {
    await this.redis.set(this.key(session.id), JSON.stringify(session.data), "EX", this.settings.idleSeconds);
  }

  /** The session of `id`, its idle expiry renewed; null when unknown, expired or past the absolute limit. */
  async get(id: string): Promise<Session | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const key = this.key(id);
    const text = await this.redis.getex(key, "EX", this.settings.idleSeconds);
    if (text === null) return null;
    const data = JSON.parse(text) as SessionData;
    if (Date.now() - data.createdAt > this.settings.absoluteSeconds * 1000) {
      await this.redis.del(key);
      return null;
    }
    return { id, data };
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }
}
