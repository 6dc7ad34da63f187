import { NOTIFIER_RPC_QUEUE } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { Redis } from "ioredis";
import type { NotifierRpcBus, WebhookBackend } from "../webhooks/webhook-backend.ts";

/**
 * Whether an account has webhook endpoints for its test keys: a sandbox submit publishes its
 * outcome event only when it may (publishing one per sandbox submit, for accounts that have no
 * endpoint to deliver it to, cost the sandbox about a third of its throughput; docs/benchmarks.md).
 *
 * Three layers, each only ever wrong in the harmless direction once an endpoint exists:
 * - the notifier's answer (`notifier.list_endpoints`, mode test, one row, waiting at most 1 s);
 * - kept in Redis for `ttlSeconds`, shared by every gateway replica. Creating a test endpoint
 *   through any gateway overwrites the key with yes, while a lookup only writes its answer when
 *   no key is there, so a lookup that read the notifier before the creation cannot hide it;
 * - kept in this process for `localTtlMs` (a Redis read per submit cost the sandbox a tenth of
 *   its throughput), but only while `subscriber` listens on the creations channel: a creation
 *   through any replica is published there and drops the entry everywhere. Without a live
 *   subscription (none given, or disconnected) every lookup reads Redis.
 *
 * A stale yes (an endpoint deleted less than a minute ago) only publishes an event the notifier
 * drops. Anything failing (Redis, the notifier) answers yes, kept for 10 s: the notifier decides.
 */
export interface TestEndpointLookup {
  mayHaveTestEndpoints(accountId: string): Promise<boolean>;
  /** After a test endpoint was created: the account has one from now on, for every replica. */
  testEndpointCreated(accountId: string): Promise<void>;
}

const DEFAULT_TTL_SECONDS = 60;
const DEFAULT_LOCAL_TTL_MS = 5_000;
/** Lookups are on a submit's path: a notifier that does not answer quickly means "yes". */
const LOOKUP_TIMEOUT_MS = 1_000;
/** After a lookup failed, "yes" is kept this long (then the notifier is asked again). */
export const FAILED_LOOKUP_TTL_SECONDS = 10;

export function createTestEndpointLookup({
  redis,
  subscriber,
  bus,
  keyPrefix,
  logger,
  ttlSeconds = DEFAULT_TTL_SECONDS,
  localTtlMs = DEFAULT_LOCAL_TTL_MS,
}: {
  redis: Redis;
  /** A connection of its own for SUBSCRIBE (ioredis resubscribes after a reconnect); closed by its owner. */
  subscriber?: Redis;
  bus: NotifierRpcBus;
  keyPrefix: string;
  logger: Logger;
  ttlSeconds?: number;
  localTtlMs?: number;
}): TestEndpointLookup {
  const key = (accountId: string) => `${keyPrefix}sandbox:test-endpoints:${accountId}`;
  const channel = `${keyPrefix}sandbox:test-endpoints:created`;
  const local = new Map<string, { has: boolean; until: number }>();
  let listening = false;
  /** Counts creations heard and subscription losses: a lookup that saw it move keeps nothing. */
  let invalidations = 0;

  const onMessage = (from: string, accountId: string) => {
    if (from !== channel) return;
    invalidations++;
    local.delete(accountId);
  };
  // Whatever was published while the subscription was down is lost: forget everything then.
  const onDown = () => {
    invalidations++;
    listening = false;
    local.clear();
  };
  if (subscriber) {
    // Subscribes on every "ready", not only at start: a first SUBSCRIBE that failed (Redis not
    // reachable yet) would otherwise leave the lookup reading Redis for the process's life, and
    // after a reconnect ioredis is "ready" before its own resubscription is confirmed. SUBSCRIBE
    // to a channel already subscribed is harmless; the cache turns on once Redis confirmed it.
    const listen = () => {
      subscriber
        .subscribe(channel)
        .then(() => {
          if (subscriber.status !== "ready") return;
          invalidations++;
          local.clear();
          listening = true;
        })
        .catch((error: unknown) =>
          logger.warn({ err: error }, "not listening for new test webhook endpoints yet; sandbox lookups read Redis"),
        );
    };
    subscriber.on("message", onMessage);
    subscriber.on("close", onDown);
    subscriber.on("ready", listen);
    if (subscriber.status === "ready") listen();
  }

  async function askNotifier(accountId: string): Promise<boolean> {
    const caller = { account_id: accountId, mode: "test" as const, request_id: `sandbox-endpoint-lookup-${accountId}` };
    const list = await bus.rpcCall(
      NOTIFIER_RPC_QUEUE,
      "notifier.list_endpoints",
      { caller, limit: 1, offset: 0 },
      { timeoutMs: LOOKUP_TIMEOUT_MS },
    );
    return list.endpoints.length > 0;
  }

  async function shared(accountId: string): Promise<boolean> {
    try {
      const known = await redis.get(key(accountId));
      if (known !== null) return known === "1";
      const has = await askNotifier(accountId);
      await redis.set(key(accountId), has ? "1" : "0", "EX", ttlSeconds, "NX");
      return has;
    } catch (error) {
      logger.warn(
        { account_id: accountId, err: error },
        "could not tell whether the account has test webhook endpoints; publishing its sandbox event",
      );
      // Not asked again for a little while: a notifier that is down would otherwise cost every
      // sandbox submit the lookup's whole wait.
      await redis.set(key(accountId), "1", "EX", FAILED_LOOKUP_TTL_SECONDS, "NX").catch(() => undefined);
      return true;
    }
  }

  return {
    async mayHaveTestEndpoints(accountId) {
      if (!listening) return shared(accountId);
      const now = Date.now();
      const cached = local.get(accountId);
      if (cached !== undefined && cached.until > now) return cached.has;
      const seen = invalidations;
      const has = await shared(accountId);
      // Kept only if no creation was heard meanwhile (the answer may predate it).
      if (listening && invalidations === seen) local.set(accountId, { has, until: now + localTtlMs });
      return has;
    },
    async testEndpointCreated(accountId) {
      // The endpoint exists whatever happens here: failing the creation's answer would only make
      // the caller create it again. A lost write leaves at worst a cached "no" for `ttlSeconds`.
      try {
        await redis.set(key(accountId), "1", "EX", ttlSeconds);
        // After the write: a lookup in flight across it keeps nothing, a later one reads "1".
        invalidations++;
        local.delete(accountId);
        await redis.publish(channel, accountId);
      } catch (error) {
        invalidations++;
        local.delete(accountId);
        logger.error(
          { account_id: accountId, err: error },
          "could not record the new test webhook endpoint; sandbox events may skip it until the cache expires",
        );
      }
    },
  };
}

/** The webhook backend, telling the lookup about each test endpoint it creates. */
export function recordingTestEndpoints(backend: WebhookBackend, lookup: TestEndpointLookup): WebhookBackend {
  return {
    ...backend,
    async createEndpoint(caller, endpoint) {
      const created = await backend.createEndpoint(caller, endpoint);
      if (caller.mode === "test") await lookup.testEndpointCreated(caller.account_id);
      return created;
    },
  };
}
