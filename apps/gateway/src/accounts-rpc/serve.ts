import type { Bus, Subscription } from "@dormant/bus";
import { type GATEWAY_RPC_CATALOG, GATEWAY_RPC_QUEUE } from "@dormant/contracts";
import type { MessageCatalog } from "@dormant/bus";
import { createSecretHasher } from "../keys/hash.ts";
import type { GatewayDb } from "../db/client.ts";
import type { Logger } from "@dormant/service-kit";
import { gatewayRpcHandlers, type GatewayRpcDeps } from "./handlers.ts";

/** A bus that serves gateway.rpc and calls billing. */
export type GatewayRpcServingBus = Pick<Bus<MessageCatalog, typeof GATEWAY_RPC_CATALOG>, "rpcServe"> & GatewayRpcDeps["bus"];

/** Serves `gateway.rpc` on the bus until the subscription is stopped (or the bus closed). */
export function serveGatewayRpc(options: {
  bus: GatewayRpcServingBus;
  db: GatewayDb;
  apiKeyPepper: string;
  logger: Logger;
}): Promise<Subscription> {
  const handlers = gatewayRpcHandlers({
    db: options.db,
    bus: options.bus,
    hasher: createSecretHasher(options.apiKeyPepper),
    logger: options.logger.child({ component: "gateway.rpc" }),
  });
  return options.bus.rpcServe(GATEWAY_RPC_QUEUE, handlers);
}
