import type { Logger } from "@dormant/service-kit";
import type { ChannelModel, ConfirmChannel, Message, Options } from "amqplib";
import type { BusConnection, ChannelUser } from "./connection.ts";
import { BusError, BusUnavailableError } from "./errors.ts";
import { CurrentChannel } from "./current-channel.ts";

export interface PublishTarget {
  exchange: string;
  routingKey: string;
}

type Attempt = { outcome: "confirmed" } | { outcome: "channel-lost" };

/**
 * Publishes on a confirm channel: a publish resolves only once the broker has confirmed it, and
 * always with `mandatory`, so an unroutable message is an error rather than silently dropped.
 *
 * The outage rule: a publish waits for the connection to come back and for the confirm, both
 * within one deadline (publishTimeoutMs); a message whose channel dies before its confirm is
 * published again on the next channel (it may then arrive twice: at-least-once, consumers
 * dedupe on message_id). When the deadline passes the publish rejects with BusUnavailableError;
 * it never resolves without a confirm.
 */
export class ConfirmPublisher implements ChannelUser {
  readonly name = "publisher";
  private readonly currentChannel: CurrentChannel<ConfirmChannel>;
  /** basic.return arrives before the confirm: message ids returned and not yet settled. */
  private readonly returned = new Map<string, number>();

  constructor(
    connection: BusConnection,
    logger: Logger,
    private readonly timeoutMs: number,
  ) {
    this.currentChannel = new CurrentChannel({
      logger,
      messages: { error: "publish channel error", listenerThrew: "publish channel listener threw" },
      reopen: (model) => connection.reattach(this, model),
    });
  }

  attach(model: ChannelModel): Promise<void> {
    return this.currentChannel.open(model, {
      create: (m) => m.createConfirmChannel(),
      prepare: (channel) => {
        channel.on("return", (message: Message) => {
          const id = message.properties.messageId as string | undefined;
          if (id) this.returned.set(id, (this.returned.get(id) ?? 0) + 1);
        });
      },
    });
  }

  detach(): void {
    this.currentChannel.clear();
  }

  /** Publishes waiting for a channel, and any later ones, fail at once with bus_closed. */
  close(): void {
    this.currentChannel.close(new BusError("bus_closed", "the bus is closed"));
  }

  /** Resolves once the broker confirmed the message; `what` names it in errors. */
  async publish(target: PublishTarget, content: Buffer, properties: Options.Publish, what: string): Promise<void> {
    const messageId = properties.messageId;
    if (!messageId) throw new Error("every published message needs a messageId");
    const deadline = Date.now() + this.timeoutMs;
    const unavailable = () => new BusUnavailableError(what, this.timeoutMs);
    for (;;) {
      const channel = await this.currentChannel.wait(deadline - Date.now(), unavailable);
      const attempt = await this.publishOnce(
        channel,
        target,
        content,
        { ...properties, mandatory: true },
        messageId,
        deadline,
        unavailable,
      );
      if (attempt.outcome === "confirmed") return;
      this.currentChannel.clear(channel);
    }
  }

  private publishOnce(
    channel: ConfirmChannel,
    target: PublishTarget,
    content: Buffer,
    properties: Options.Publish,
    messageId: string,
    deadline: number,
    unavailable: () => Error,
  ): Promise<Attempt> {
    return new Promise<Attempt>((resolve, reject) => {
      const timer = setTimeout(() => reject(unavailable()), Math.max(0, deadline - Date.now()));
      try {
        channel.publish(target.exchange, target.routingKey, content, properties, (error: unknown) => {
          clearTimeout(timer);
          const returns = this.returned.get(messageId) ?? 0;
          if (returns > 0) {
            if (returns === 1) this.returned.delete(messageId);
            else this.returned.set(messageId, returns - 1);
            if (!error) {
              reject(new BusError("unroutable", `no queue is bound for ${target.exchange || "(default)"}/${target.routingKey}`));
              return;
            }
          }
          if (!error) resolve({ outcome: "confirmed" });
          else if (error instanceof Error && error.message === "message nacked") {
            reject(new BusError("publish_nacked", `the broker refused ${target.exchange || "(default)"}/${target.routingKey}`));
          } else resolve({ outcome: "channel-lost" });
        });
      } catch {
        // The channel closed under us (IllegalOperationError): try again on the next one.
        clearTimeout(timer);
        resolve({ outcome: "channel-lost" });
      }
    });
  }
}
