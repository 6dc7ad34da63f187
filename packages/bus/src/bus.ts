import type { BusMessageMetadata } from "@dormant/contracts";
import { createLogger, type DependencyWaits, type Logger } from "@dormant/service-kit";
import type { ChannelModel } from "amqplib";
import { Registry } from "prom-client";
import type { z } from "zod";
import { catalogProblems, consumerQueues } from "./catalog/validate.ts";
import type { ConsumedQueue, HandlerMap, MessageCatalog, MessageHandler, PayloadInput } from "./catalog/message-catalog.ts";
import type { RpcCatalog, RpcHandler, RpcHandlerMap, RpcQueue } from "./catalog/rpc-catalog.ts";
import { BusConnection, type ReconnectOptions } from "./connection.ts";
import { DeliveryLoop } from "./delivery-loop.ts";
import { encodeBody, messageProperties, newMetadata, type MetadataOverrides } from "./envelope.ts";
import { BusError } from "./errors.ts";
import { messageDeliveryHandler } from "./message-consumer.ts";
import { createBusMetrics } from "./metrics.ts";
import { ConfirmPublisher, type PublishTarget } from "./publisher.ts";
import { scheduledWait } from "./retry-schedule.ts";
import { RpcClient } from "./rpc-client.ts";
import { rpcDeliveryHandler } from "./rpc-server.ts";
import { declareRpcQueue, declareTopology, declareTopologyAsPermitted } from "./topology/declare.ts";
import { waitQueueName } from "./topology/names.ts";
import { topologyProblems } from "./topology/plan.ts";
import { outsideRole, serviceRole, serviceTopology } from "./topology/roles.ts";
import type { Topology } from "./topology/spec.ts";

export interface BusOptions<C extends MessageCatalog, R extends RpcCatalog> {
  /** amqp://user:pass@host:5672/vhost (AMQP_URL). */
  url: string;
  /**
   * Names the connection in the broker and the appId of every message. When the topology gives a
   * role to this name (Topology.services), the service is held to it: it declares only its own
   * part (after as much of the rest as the broker permits) and anything outside its role (consuming,
   * serving, publishing to or calling what the role does not list) throws.
   */
  service: string;
  messages: C;
  rpc: R;
  /** Every exchange and queue the services use (the platform's is PLATFORM_TOPOLOGY in @dormant/contracts). */
  topology: Topology;
  logger?: Logger;
  /** Registry for the bus counters (the service's own, from createMetricsRegistry). */
  metrics?: Registry;
  /** How long a publish may wait for the connection and the broker's confirm (default 10 s). */
  publishTimeoutMs?: number;
  /** Default prefetch of consumers and RPC servers (default 10). */
  prefetch?: number;
  reconnect?: ReconnectOptions;
  heartbeatSeconds?: number;
  /**
   * The process's start-up gate (service-kit's StartupGate): the first connection is retried
   * through it for as long as the broker is unreachable, as dependency "rabbitmq", instead of
   * failing after `reconnect.initialMaxRetries` attempts.
   */
  startup?: DependencyWaits;
}

export interface PublishOptions extends MetadataOverrides {
  /** Commands only: deliver no sooner than this (through the queue's wait tiers). */
  delayMs?: number;
}

export interface SubscribeOptions {
  prefetch?: number;
}

export interface RpcCallOptions {
  /** Defaults to the RPC definition's timeoutMs. */
  timeoutMs?: number;
}

/** A running consumer or RPC server. */
export interface Subscription {
  readonly queue: string;
  /** Stops taking deliveries and resolves once the handlers in flight have finished. */
  stop(): Promise<void>;
}

export interface Bus<C extends MessageCatalog, R extends RpcCatalog> {
  /** Publishes a message of the catalog; resolves with its metadata once the broker confirmed it. */
  publish<T extends keyof C & string>(type: T, payload: PayloadInput<C, T>, options?: PublishOptions): Promise<BusMessageMetadata>;
  /** Consumes a work queue with one handler per message type arriving on it. */
  consume<Q extends ConsumedQueue<C>>(queue: Q, handlers: HandlerMap<C, Q>, options?: SubscribeOptions): Promise<Subscription>;
  /** Calls an RPC server and resolves with its (validated) response, or rejects with an AppError. */
  rpcCall<T extends keyof R & string>(
    queue: R[T]["queue"],
    type: T,
    payload: z.input<R[T]["request"]>,
    options?: RpcCallOptions,
  ): Promise<z.output<R[T]["response"]>>;
  /** Serves an RPC queue with one handler per RPC type of that queue. */
  rpcServe<Q extends RpcQueue<R>>(queue: Q, handlers: RpcHandlerMap<R, Q>, options?: SubscribeOptions): Promise<Subscription>;
  /** Whether the broker connection is up right now. */
  isConnected(): boolean;
  /** For readiness endpoints: resolves when connected, throws otherwise. */
  readinessCheck(): Promise<void>;
  /** Stops every consumer and RPC server (waiting for handlers in flight), then disconnects. */
  close(): Promise<void>;
}

/**
 * Connects to the broker, declares the topology (a service with a role: its own part, see
 * BusOptions.service), and returns the bus. The topology and the
 * catalogs are checked first: an unsound topology (names declared twice, tiers not ascending,
 * bindings to unknown queues), a message routed to a queue that does not exist, an event whose
 * consumers the bindings do not reach, or a backoff that is not a wait tier fails here.
 */
export async function connectBus<const C extends MessageCatalog, const R extends RpcCatalog>(
  options: BusOptions<C, R>,
): Promise<Bus<C, R>> {
  const { topology } = options;
  const topologyFaults = topologyProblems(topology);
  if (topologyFaults.length > 0) throw new Error(`invalid bus topology:\n  - ${topologyFaults.join("\n  - ")}`);
  const problems = catalogProblems(options.messages, options.rpc, topology);
  if (problems.length > 0) throw new Error(`bus catalogs do not fit the topology:\n  - ${problems.join("\n  - ")}`);

  const logger = (options.logger ?? createLogger({ service: options.service })).child({ component: "bus" });
  const metrics = createBusMetrics(options.metrics ?? new Registry());
  const prefetch = options.prefetch ?? 10;
  const publishTimeoutMs = options.publishTimeoutMs ?? 10_000;
  const workQueues = new Map(topology.workQueues.map((q) => [q.name, q]));
  const rpcQueues = new Map(topology.rpcQueues.map((q) => [q.name, q]));
  const role = serviceRole(topology, options.service);
  const allow = (allowed: readonly string[] | undefined, name: string, what: string) => {
    if (role && !allowed?.includes(name)) throw outsideRole(role, what);
  };

  const declare = async (model: ChannelModel) => {
    if (role && !(await declareTopologyAsPermitted(model, topology))) {
      logger.info(
        { service: role.service },
        "this user may declare only the service's own part of the topology; the rest is expected from the definitions loaded at deploy",
      );
    }
    const channel = await model.createChannel();
    channel.on("error", (error: Error) => logger.error({ err: error }, "topology declaration failed"));
    await declareTopology(channel, role ? serviceTopology(topology, role) : topology);
    await channel.close();
  };

  const open = (reconnect: ReconnectOptions | undefined) =>
    BusConnection.open({
      url: options.url,
      service: options.service,
      logger,
      reconnect,
      heartbeatSeconds: options.heartbeatSeconds,
      prepare: declare,
    });
  // With a start-up gate each attempt is one connect (the gate backs off and logs between them).
  const startup = options.startup;
  const connection = startup
    ? await startup.connect("rabbitmq", () => open({ ...options.reconnect, initialMaxRetries: 0 }))
    : await open(options.reconnect);
  const publisher = new ConfirmPublisher(connection, logger, publishTimeoutMs);
  const rpcClient = new RpcClient(connection, options.service, logger);
  await connection.register(publisher);
  await connection.register(rpcClient);
  const subscriptions = new Set<DeliveryLoop>();

  const subscribe = async (loop: DeliveryLoop, queue: string): Promise<Subscription> => {
    subscriptions.add(loop);
    await loop.start();
    return {
      queue,
      stop: async () => {
        await loop.stop();
        subscriptions.delete(loop);
      },
    };
  };

  return {
    async publish(type, payload, publishOptions = {}) {
      const definition = options.messages[type];
      if (!definition) throw new Error(`unknown message type "${type}"`);
      const destination = definition.route.kind === "command" ? definition.route.queue : definition.route.exchange;
      allow(role?.publishesTo, destination, `publishes ${type} to ${destination}`);
      const parsed = definition.schema.safeParse(payload);
      if (!parsed.success) {
        throw new BusError("invalid_message", `${type}: invalid payload`, {
          details: parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message })),
        });
      }
      const { delayMs, ...overrides } = publishOptions;
      const metadata = newMetadata(type, definition.schemaVersion, overrides);
      const properties = messageProperties(metadata, options.service);
      const route = definition.route;
      let target: PublishTarget;
      if (delayMs !== undefined && delayMs > 0) {
        if (route.kind !== "command") throw new Error(`${type}: only commands can be delayed`);
        const spec = workQueues.get(route.queue);
        if (!spec) throw new Error(`${type}: unknown queue ${route.queue}`);
        const wait = scheduledWait(spec.waitTiersMs, delayMs);
        target = { exchange: "", routingKey: waitQueueName(route.queue, wait.tierMs) };
        properties.expiration = String(wait.expirationMs);
      } else {
        target =
          route.kind === "command" ? { exchange: "", routingKey: route.queue } : { exchange: route.exchange, routingKey: route.routingKey };
      }
      await publisher.publish(target, encodeBody(parsed.data), properties, type);
      metrics.published.inc({ type });
      return metadata;
    },

    async consume(queue, handlers, subscribeOptions = {}) {
      allow(role?.consumes, queue, `consumes ${queue}`);
      const expected = Object.entries(options.messages)
        .filter(([, definition]) => consumerQueues(definition).includes(queue))
        .map(([type]) => type);
      const given = handlers as Readonly<Record<string, MessageHandler<never>>>;
      const missing = expected.filter((type) => typeof given[type] !== "function");
      if (expected.length === 0 || missing.length > 0) {
        throw new Error(`consume(${queue}): handlers missing for ${missing.join(", ") || "(no message arrives on this queue)"}`);
      }
      const loop = new DeliveryLoop({
        connection,
        queue,
        prefetch: subscribeOptions.prefetch ?? prefetch,
        logger,
        handle: messageDeliveryHandler({ queue, catalog: options.messages, handlers: given, publisher, metrics, logger }),
      });
      return subscribe(loop, queue);
    },

    async rpcCall(queue, type, payload, callOptions = {}) {
      const definition = options.rpc[type];
      if (!definition || definition.queue !== queue) throw new Error(`unknown rpc "${type}" on ${queue}`);
      allow(role?.calls, queue, `calls ${queue}`);
      return rpcClient.call(queue, type, definition, payload, callOptions.timeoutMs ?? definition.timeoutMs) as never;
    },

    async rpcServe(queue, handlers, subscribeOptions = {}) {
      const spec = rpcQueues.get(queue);
      if (!spec) throw new Error(`rpcServe(${queue}): not an rpc queue of the topology`);
      allow(role?.serves, queue, `serves ${queue}`);
      const given = handlers as Readonly<Record<string, RpcHandler<never, unknown>>>;
      const missing = Object.entries(options.rpc)
        .filter(([type, definition]) => definition.queue === queue && typeof given[type] !== "function")
        .map(([type]) => type);
      if (missing.length > 0) throw new Error(`rpcServe(${queue}): handlers missing for ${missing.join(", ")}`);
      const loop = new DeliveryLoop({
        connection,
        queue,
        prefetch: subscribeOptions.prefetch ?? prefetch,
        logger,
        prepare: (channel) => declareRpcQueue(channel, spec),
        handle: rpcDeliveryHandler({ queue, catalog: options.rpc, handlers: given, service: options.service, logger }),
      });
      return subscribe(loop, queue);
    },

    isConnected: () => connection.isConnected(),

    async readinessCheck() {
      if (!connection.isConnected()) throw new Error("not connected to the broker");
    },

    async close() {
      await Promise.all([...subscriptions].map((loop) => loop.stop()));
      subscriptions.clear();
      publisher.close();
      rpcClient.close();
      await connection.close();
    },
  };
}
