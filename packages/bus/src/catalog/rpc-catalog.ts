/** RPC catalogs: each RPC type's queue, request and response, and its handlers. */
import type { z } from "zod";

export interface RpcDefinition {
  readonly queue: string;
  readonly request: z.ZodType;
  readonly response: z.ZodType;
  readonly schemaVersion: number;
  /** Default caller timeout; the server also stops waiting for its handler after it. */
  readonly timeoutMs: number;
}

/** RPC type name (`filing.submit`) -> its definition. */
export type RpcCatalog = { readonly [type: string]: RpcDefinition };

// ---- derived types: what the compiler checks at call sites ----

export type RpcQueue<R extends RpcCatalog> = R[keyof R]["queue"];

export interface RpcContext {
  readonly queue: string;
  readonly type: string;
  /** Fires when the caller stops waiting or the handler's timeout passes. */
  readonly signal: AbortSignal;
  readonly requestId: string;
}

export type RpcHandler<Req, Res> = (request: Req, context: RpcContext) => Promise<Res>;

/** One handler for every RPC type served on queue Q. */
export type RpcHandlerMap<R extends RpcCatalog, Q extends string> = {
  [T in keyof R & string as R[T]["queue"] extends Q ? T : never]: RpcHandler<z.output<R[T]["request"]>, z.input<R[T]["response"]>>;
};
