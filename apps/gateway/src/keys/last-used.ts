import type { Logger } from "@dormant/service-kit";
import type { GatewayDb } from "../db/client.ts";

/** Records that a key authenticated a request, for `api_keys.last_used_at`. */
export interface LastUsedRecorder {
  /** Costs a Date.now and a Map lookup; at most once an interval per key it starts a write it never waits for. */
  touch(keyId: string): void;
}

export interface LastUsedRecorderOptions {
  db: Pick<GatewayDb, "$executeRaw">;
  logger: Pick<Logger, "warn">;
  /** The least time between two writes of one key (per process); a minute by default. */
  intervalMs?: number;
  now?: () => number;
  /** Above this many remembered keys, the entries older than the interval are dropped. */
  maxEntries?: number;
}

export const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Keeps `last_used_at` to the minute without touching the request's path: the first request of a
 * key in an interval fires `UPDATE api_keys SET last_used_at = now()` and goes on; the write's
 * failure is a warning (the next interval tries again), never the request's. Each process writes
 * a key at most once an interval, so N replicas write it at most N times a minute.
 */
export function createLastUsedRecorder(options: LastUsedRecorderOptions): LastUsedRecorder {
  const intervalMs = options.intervalMs ?? LAST_USED_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 100_000;
  const writtenAt = new Map<string, number>();

  function forgetStale(at: number) {
    for (const [keyId, written] of writtenAt) if (at - written >= intervalMs) writtenAt.delete(keyId);
  }

  function write(keyId: string) {
    options.db.$executeRaw`UPDATE api_keys SET last_used_at = now() WHERE key_id = ${keyId}`.then(
      () => {},
      (error: unknown) => options.logger.warn({ err: error, key_id: keyId }, "recording an API key's last use failed"),
    );
  }

  return {
    touch(keyId) {
      const at = now();
      const written = writtenAt.get(keyId);
      if (written !== undefined && at - written < intervalMs) return;
      writtenAt.set(keyId, at);
      if (writtenAt.size > maxEntries) forgetStale(at);
      write(keyId);
    },
  };
}
