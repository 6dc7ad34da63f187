import type { Bus, Subscription } from "@dormant/bus";
import { type GATEWAY_RPC_CATALOG, GATEWAY_RPC_QUEUE } from "@dormant/contracts";
import type { MessageCatalog } from "@dormant/bus";
import { createSecretHasher } from "../keys/hash.ts";
import type { GatewayDb } from "../db/client.ts";
import type { Logger } from "@dormant/service-kit";
import type { Redis } from "ioredis";
import { createRateLimiter } from "../rate-limit/limiter.ts";
import { DEFAULT_KEY_CHANGE_LIMITS, type KeyChangeLimits } from "../rate-limit/limits.ts";
import { gatewayRpcHandlers, type GatewayRpcDeps } from "./handlers.ts";

/** A bus that serves gateway.rpc and calls billing. */
export type GatewayRpcServingBus = Pick<Bus<MessageCatalog, typeof GATEWAY_RPC_CATALOG>, "rpcServe"> & GatewayRpcDeps["bus"];

/** Serves `gateway.rpc` on the bus until the subscription is stopped (or the bus closed). */
export function serveGatewayRpc(options: {
  bus: GatewayRpcServingBus;
  db: GatewayDb;
  apiKeyPepper: string;
  logger: Logger;
  /** Where key changes are counted (the API's rate limits' Redis and prefix). */
  redis: Redis;
  redisKeyPrefix: string;
  keyChangeLimits?: KeyChangeLimits;
}): Promise<Subscription> {
  const handlers = gatewayRpcHandlers({
    db: options.db,
    limiter: createRateLimiter({ redis: options.redis, keyPrefix: options.redisKeyPrefix }),
    keyChangeLimits: options.keyChangeLimits ?? DEFAULT_KEY_CHANGE_LIMITS,
    bus: options.bus,
    hasher: createSecretHasher(options.apiKeyPepper),
    logger: options.logger.child({ component: "gateway.rpc" }),
  });
  return options.bus.rpcServe(GATEWAY_RPC_QUEUE, handlers);
}
