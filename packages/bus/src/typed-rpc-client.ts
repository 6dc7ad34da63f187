import type { z } from "zod";
import type { Bus, RpcCallOptions } from "./bus.ts";
import type { MessageCatalog } from "./catalog/message-catalog.ts";
import type { RpcCatalog } from "./catalog/rpc-catalog.ts";

/**
 * Calls one RPC of a catalog: the queue comes from the catalog, the request and the answer are
 * typed by its schemas (the answer validated by the bus), so a caller never names a queue or casts.
 */
export type RpcCaller<R extends RpcCatalog> = <T extends keyof R & string>(
  type: T,
  payload: z.input<R[T]["request"]>,
  options?: RpcCallOptions,
) => Promise<z.output<R[T]["response"]>>;

/** What a client needs of the bus: its RPC calls (a test may hand in any bus serving them). */
export type RpcCallingBus<R extends RpcCatalog> = Pick<Bus<MessageCatalog, R>, "rpcCall">;

/**
 * The one way a service calls another's RPCs: `rpcClient(bus, catalog, translate)` answers a
 * typed caller of every RPC in `catalog` (a service's catalog, or the part of it a caller uses).
 * `translate` turns what a call threw (the server's AppError, or the bus's BusError: nobody
 * serving, no reply in time, the broker down) into what the caller's own layer throws, once for
 * every RPC of the client; without it the error is thrown as it came.
 */
export function rpcClient<const R extends RpcCatalog>(
  bus: RpcCallingBus<R>,
  catalog: R,
  translate?: (error: unknown) => unknown,
): RpcCaller<R> {
  return async (type, payload, options) => {
    try {
      return await bus.rpcCall(catalog[type]!.queue, type, payload, options);
    } catch (error) {
      throw translate ? translate(error) : error;
    }
  };
}
