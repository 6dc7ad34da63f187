import type { Logger } from "@dormant/service-kit";
import type { Channel, ChannelModel, ConsumeMessage, Options } from "amqplib";
import type { BusConnection, ChannelUser } from "./connection.ts";

/** One delivery as a handler sees it: settle it exactly once, on the channel it came from. */
export interface Delivery {
  readonly message: ConsumeMessage;
  /** Whether the channel it came on is still open (if not, the broker will redeliver it). */
  channelOpen(): boolean;
  ack(): void;
  /** Gives the message back to the queue (it comes again; counts toward x-delivery-limit). */
  requeue(): void;
  /** Sends a message through the default exchange on the same channel (unconfirmed: RPC replies). */
  send(routingKey: string, content: Buffer, properties: Options.Publish): void;
}

export interface DeliveryLoopOptions {
  connection: BusConnection;
  queue: string;
  prefetch: number;
  logger: Logger;
  /** Runs on each new channel before consuming (an RPC server declares its queue here). */
  prepare?: (channel: Channel) => Promise<void>;
  handle: (delivery: Delivery) => Promise<void>;
}

/**
 * A consumer with manual acks on its own channel: prefetch-bounded, every delivery awaited, a
 * channel lost on a live connection reopened, and re-attached after every reconnect. stop()
 * stops taking deliveries, waits for those in flight, then closes the channel.
 */
export class DeliveryLoop implements ChannelUser {
  readonly name: string;
  private channel: Channel | null = null;
  private consumerTag: string | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly options: DeliveryLoopOptions) {
    this.name = `consumer:${options.queue}`;
  }

  async start(): Promise<void> {
    await this.options.connection.register(this);
  }

  async attach(model: ChannelModel): Promise<void> {
    if (this.stopping || this.channel) return;
    const { queue, prefetch, logger } = this.options;
    const channel = await model.createChannel();
    let open = true;
    channel.on("error", (error: Error) => logger.warn({ err: error, queue }, "consumer channel error"));
    channel.on("handler-error", (error: Error, event: string) =>
      logger.error({ err: error, event, queue }, "consumer channel listener threw"),
    );
    channel.on("close", () => {
      open = false;
      if (this.channel !== channel) return;
      this.channel = null;
      this.consumerTag = null;
      if (!this.stopping) this.options.connection.reattach(this, model);
    });
    try {
      await channel.prefetch(prefetch);
      if (this.options.prepare) await this.options.prepare(channel);
      const { consumerTag } = await channel.consume(
        queue,
        (message) => {
          if (message === null) {
            // Cancelled by the broker (queue deleted): start over on a fresh channel.
            logger.warn({ queue }, "consumer cancelled by the broker");
            channel.close().catch(() => undefined);
            return;
          }
          this.track(this.deliver(channel, message, () => open));
        },
        { noAck: false },
      );
      this.channel = channel;
      this.consumerTag = consumerTag;
    } catch (error) {
      if (open) await channel.close().catch(() => undefined);
      throw error;
    }
  }

  detach(): void {
    this.channel = null;
    this.consumerTag = null;
  }

  /** Stops taking deliveries, waits for the handlers in flight, then closes the channel. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.options.connection.unregister(this);
    const channel = this.channel;
    if (channel && this.consumerTag) await channel.cancel(this.consumerTag).catch(() => undefined);
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.channel = null;
    if (channel) await channel.close().catch(() => undefined);
  }

  private deliver(channel: Channel, message: ConsumeMessage, isOpen: () => boolean): Promise<void> {
    const { logger, queue } = this.options;
    let settled = false;
    const settle = (what: string, action: () => void) => {
      if (settled) return;
      settled = true;
      if (!isOpen()) return;
      try {
        action();
      } catch (error) {
        // The channel closed in between: the broker redelivers the message.
        logger.warn({ err: error, queue, what }, "could not settle a delivery");
      }
    };
    const delivery: Delivery = {
      message,
      channelOpen: isOpen,
      ack: () => settle("ack", () => channel.ack(message)),
      requeue: () => settle("requeue", () => channel.nack(message, false, true)),
      send: (routingKey, content, properties) => {
        channel.publish("", routingKey, content, properties);
      },
    };
    return this.options.handle(delivery).catch((error: unknown) => {
      logger.error({ err: error, queue }, "delivery handling failed; requeueing");
      delivery.requeue();
    });
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}
