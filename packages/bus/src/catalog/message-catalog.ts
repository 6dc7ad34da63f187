/** Message catalogs: what each message type is, how it is routed and retried, and its handlers. */
import type { BusEnvelope } from "@dormant/contracts";
import type { z } from "zod";

/**
 * Bounded retries: a failed attempt n (1-based) waits backoffMs[n-1] (the last entry repeats) in
 * the wait tier of that length, shortened by up to `jitter` (0..1) of it, then runs again; after
 * maxAttempts attempts the message is parked. Every backoff value must be a wait tier of each
 * queue the message is consumed from.
 */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly backoffMs: readonly number[];
  readonly jitter: number;
}

/**
 * command: sent to exactly one work queue through the default exchange.
 * event: published to a topic exchange; `consumers` names every work queue bound to receive it
 * (checked against the topology's bindings when the bus starts).
 */
export type MessageRoute =
  | { readonly kind: "command"; readonly queue: string }
  | { readonly kind: "event"; readonly exchange: string; readonly routingKey: string; readonly consumers: readonly string[] };

export interface MessageDefinition {
  readonly schema: z.ZodType;
  readonly schemaVersion: number;
  readonly route: MessageRoute;
  readonly retry: RetryPolicy;
  /** A handler running longer is aborted (its signal fires) and the attempt counts as failed. */
  readonly timeoutMs: number;
}

/** Message type name (`filing.accepted`) -> its definition. */
export type MessageCatalog = { readonly [type: string]: MessageDefinition };

// ---- derived types: what the compiler checks at call sites ----

type QueuesOf<D extends MessageDefinition> = D["route"] extends { readonly kind: "command"; readonly queue: infer Q extends string }
  ? Q
  : D["route"] extends { readonly consumers: readonly (infer Q extends string)[] }
    ? Q
    : never;

/** Every work queue some message of the catalog is consumed from. */
export type ConsumedQueue<C extends MessageCatalog> = { [T in keyof C]: QueuesOf<C[T]> }[keyof C];

/** The message types that arrive on queue Q. */
export type TypesOnQueue<C extends MessageCatalog, Q extends string> = {
  [T in keyof C & string]: Q extends QueuesOf<C[T]> ? T : never;
}[keyof C & string];

export type PayloadOf<C extends MessageCatalog, T extends keyof C> = z.output<C[T]["schema"]>;
export type PayloadInput<C extends MessageCatalog, T extends keyof C> = z.input<C[T]["schema"]>;

export interface DeliveryContext {
  readonly queue: string;
  /** 1 on the first attempt; retries scheduled by the bus count up. */
  readonly attempt: number;
  /** The broker delivered this before (a consumer died before acking): expect a duplicate. */
  readonly redelivered: boolean;
  /** Fires when the handler's timeout passes: pass it to I/O so the work really stops. */
  readonly signal: AbortSignal;
}

export type MessageHandler<P> = (message: BusEnvelope<P>, context: DeliveryContext) => Promise<void>;

/** One handler for every message type that arrives on queue Q, no more and no fewer. */
export type HandlerMap<C extends MessageCatalog, Q extends string> = {
  [T in TypesOnQueue<C, Q>]: MessageHandler<PayloadOf<C, T>>;
};
