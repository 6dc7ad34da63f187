import type { Logger } from "@dormant/service-kit";
import type { Channel, ChannelModel } from "amqplib";

/** How a component's channels are watched (see `CurrentChannel`). */
export interface ChannelWatch {
  logger: Logger;
  /** The log messages of a channel error and of a channel listener that threw. */
  messages: { error: string; listenerThrew: string };
  /** The current channel closed and was dropped: have the owner attached again on `model`. */
  reopen: (model: ChannelModel) => void;
}

/** How `CurrentChannel.open` opens and prepares one channel. */
export interface ChannelOpening<T> {
  create: (model: ChannelModel) => Promise<T>;
  /** Sets the channel up (listeners, consumers) before it becomes the current one. */
  prepare: (channel: T) => void | Promise<void>;
  /** Runs first on every close of the channel, current or not. */
  onClose?: (channel: T) => void;
}

/**
 * The channel a component currently publishes or calls on, which comes and goes with the
 * connection: callers wait for it with a deadline instead of failing at once while the
 * connection recovers. Its channels' errors are logged, and a current channel that closes is
 * dropped and its owner reattached.
 */
export class CurrentChannel<T extends Channel> {
  private value: T | null = null;
  private closedWith: Error | null = null;
  private readonly waiters = new Set<{ wake: (value: T) => void; fail: (error: Error) => void }>();

  constructor(private readonly watch: ChannelWatch) {}

  /** Opens a channel on `model`, watches it, prepares it, then makes it the current one. */
  async open(model: ChannelModel, { create, prepare, onClose }: ChannelOpening<T>): Promise<void> {
    const { logger, messages, reopen } = this.watch;
    const channel = await create(model);
    channel.on("error", (error: Error) => logger.warn({ err: error }, messages.error));
    channel.on("handler-error", (error: Error, event: string) => logger.error({ err: error, event }, messages.listenerThrew));
    channel.on("close", () => {
      onClose?.(channel);
      if (this.value !== channel) return;
      this.clear(channel);
      reopen(model);
    });
    await prepare(channel);
    this.set(channel);
  }

  private set(value: T): void {
    this.value = value;
    for (const waiter of [...this.waiters]) waiter.wake(value);
  }

  /** Drops the channel for good: waiting and later callers get `error`. */
  close(error: Error): void {
    this.value = null;
    this.closedWith = error;
    for (const waiter of [...this.waiters]) waiter.fail(error);
  }

  /** Drops the channel if it is still `value` (or anything, when no value is given). */
  clear(value?: T): void {
    if (value === undefined || this.value === value) this.value = null;
  }

  wait(timeoutMs: number, timeoutError: () => Error): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.value !== null) return Promise.resolve(this.value);
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        wake: (value: T) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(value);
        },
        fail: (error: Error) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.fail(timeoutError()), Math.max(0, timeoutMs));
      this.waiters.add(waiter);
    });
  }
}
