import type { Logger } from "@dormant/service-kit";
import type { Channel } from "amqplib";

/** How a component watches a channel it opened (see `CurrentChannel.watch`). */
export interface ChannelWatch {
  logger: Logger;
  /** The log messages of a channel error and of a channel listener that threw. */
  messages: { error: string; listenerThrew: string };
  /** Runs first on every close of the channel, current or not. */
  onClose?: () => void;
  /** The current channel closed and was dropped: ask the connection for a new one. */
  reopen: () => void;
}

/**
 * The channel a component currently publishes or calls on, which comes and goes with the
 * connection: callers wait for it with a deadline instead of failing at once while the
 * connection recovers.
 */
export class CurrentChannel<T extends Channel> {
  private value: T | null = null;
  private closedWith: Error | null = null;
  private readonly waiters = new Set<{ wake: (value: T) => void; fail: (error: Error) => void }>();

  current(): T | null {
    return this.value;
  }

  set(value: T): void {
    this.value = value;
    for (const waiter of [...this.waiters]) waiter.wake(value);
  }

  /**
   * Logs the errors of `channel`, just opened, and when it closes while it is still the current
   * channel, drops it and calls `reopen`.
   */
  watch(channel: T, { logger, messages, onClose, reopen }: ChannelWatch): void {
    channel.on("error", (error: Error) => logger.warn({ err: error }, messages.error));
    channel.on("handler-error", (error: Error, event: string) => logger.error({ err: error, event }, messages.listenerThrew));
    channel.on("close", () => {
      onClose?.();
      if (this.value !== channel) return;
      this.clear(channel);
      reopen();
    });
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
