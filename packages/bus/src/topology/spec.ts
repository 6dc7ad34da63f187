/**
 * The shape of a bus topology, given to the bus as data. The platform's own is written once, in
 * @dormant/contracts (PLATFORM_TOPOLOGY); tests write small ones of their own with the same types.
 */

export interface ExchangeSpec {
  readonly name: string;
  readonly type: "topic" | "direct" | "fanout";
  readonly purpose: string;
}

/**
 * A durable quorum work queue. Beside it the bus declares one TTL wait queue per tier (used for
 * retries with backoff and for scheduled messages: the wait queue dead-letters back into the work
 * queue when a message expires) and a parking-lot dead-letter queue.
 */
export interface WorkQueueSpec {
  readonly name: string;
  readonly purpose: string;
  /** TTLs of the wait queues, ascending, in milliseconds. */
  readonly waitTiersMs: readonly number[];
  /**
   * Broker-side poison guard (`x-delivery-limit`): a message redelivered this many times without
   * an ack (a consumer crashing on it) is dead-lettered into the parking lot by the broker.
   */
  readonly deliveryLimit: number;
}

/**
 * An RPC request queue. Declared by the serving side when it starts serving (auto-delete, so it
 * disappears with its last server and callers get a fast "no server" instead of a timeout).
 */
export interface RpcQueueSpec {
  readonly name: string;
  readonly purpose: string;
  /** Requests older than this are dropped by the broker (`x-message-ttl`): nobody waits for them. */
  readonly maxRequestAgeMs: number;
}

export interface BindingSpec {
  readonly exchange: string;
  /** Topic pattern (`*` one word, `#` zero or more words) or exact key for direct exchanges. */
  readonly routingKey: string;
  readonly queue: string;
}

/**
 * One service's part of the topology: what it may do on the broker, and nothing else. A service
 * connecting under this name (BusOptions.service) declares only its own part and is refused by the
 * bus anything outside it; each service's RabbitMQ permissions are derived from the same entry
 * (servicePermissions), so the two cannot drift apart.
 */
export interface ServiceRoleSpec {
  /** The service's name (its BusOptions.service, its RabbitMQ user's suffix). */
  readonly service: string;
  readonly purpose: string;
  /** Work queues it consumes: it declares them (with their wait tiers and parking lot) and retries into them. */
  readonly consumes: readonly string[];
  /** RPC queues it serves (declares and consumes, replying on the default exchange). */
  readonly serves: readonly string[];
  /** Where its messages go: exchanges of its events, work queues of its commands. */
  readonly publishesTo: readonly string[];
  /** RPC queues it calls (over direct reply-to). */
  readonly calls: readonly string[];
}

export interface Topology {
  readonly exchanges: readonly ExchangeSpec[];
  readonly workQueues: readonly WorkQueueSpec[];
  readonly rpcQueues: readonly RpcQueueSpec[];
  readonly bindings: readonly BindingSpec[];
  /** Who does what (optional): one entry per service that connects to the broker. */
  readonly services?: readonly ServiceRoleSpec[];
}
