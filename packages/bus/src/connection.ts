import type { Logger } from "@dormant/service-kit";
import { connect, type ChannelModel, type RecoveringChannelModel } from "amqplib";

/**
 * Something that keeps channels on the bus connection (publisher, RPC client, consumers). The
 * connection attaches it on every (re)connect and detaches it when the connection is lost.
 */
export interface ChannelUser {
  readonly name: string;
  /** Opens its channel(s) on a fresh connection. Throwing fails that connect, which is retried. */
  attach(model: ChannelModel): Promise<void>;
  /** The connection is gone: forget its channels and fail what cannot survive the loss. */
  detach(error: Error): void;
}

export interface ConnectionOptions {
  url: string;
  service: string;
  logger: Logger;
  /** Runs first on every (re)connect, before any user is attached: declares the topology. */
  prepare: (model: ChannelModel) => Promise<void>;
  reconnect?: ReconnectOptions;
  heartbeatSeconds?: number;
}

export interface ReconnectOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Failed attempts allowed before the very first connection (a boot with no broker fails); 0
   * when a start-up gate retries the whole connect (BusOptions.startup).
   */
  initialMaxRetries?: number;
}

/**
 * The bus connection over amqplib's opt-in recovery: reconnects with exponential backoff and
 * jitter for ever once connected, re-declares the topology and re-attaches every channel user
 * after each reconnect. A channel lost on a live connection is reopened by its user (reattach).
 */
export class BusConnection {
  private model: ChannelModel | null = null;
  private readonly users = new Set<ChannelUser>();
  private closing = false;
  private recovering: RecoveringChannelModel | null = null;

  private constructor(private readonly options: ConnectionOptions) {}

  static async open(options: ConnectionOptions): Promise<BusConnection> {
    const connection = new BusConnection(options);
    const reconnect = options.reconnect ?? {};
    const url = new URL(options.url);
    if (!url.searchParams.has("heartbeat")) url.searchParams.set("heartbeat", String(options.heartbeatSeconds ?? 15));
    const recovering = await connect(url.toString(), {
      clientProperties: { connection_name: options.service },
      // No Nagle: a publish is several small frames, and an RPC reply or confirm held back until
      // the peer's delayed ACK (up to 40 ms on Linux) would sit in every hop of a submit.
      noDelay: true,
      recovery: {
        initialDelay: reconnect.initialDelayMs ?? 100,
        maxDelay: reconnect.maxDelayMs ?? 5000,
        factor: 2,
        jitter: 0.2,
        maxRetries: Infinity,
        initialMaxRetries: reconnect.initialMaxRetries ?? 5,
        waitForConnect: false,
        setup: (model: ChannelModel) => connection.setup(model),
      },
    });
    connection.recovering = recovering;
    const log = options.logger;
    // A first connect allowed no retries is retried by the caller (a start-up gate logs it).
    let connected = reconnect.initialMaxRetries !== 0;
    recovering.on("disconnect", (error: Error) => log.warn({ err: error }, "bus connection lost"));
    recovering.on("connect-failed", (error: Error) => {
      if (connected) log.warn({ err: error }, "bus connect failed");
    });
    recovering.on("reconnect-scheduled", ({ attempt, delay }: { attempt: number; delay: number }) =>
      log.info({ attempt, delay_ms: delay }, "bus reconnect scheduled"),
    );
    recovering.on("reconnect-failed", (error: Error) => {
      if (connected) log.error({ err: error }, "bus gave up reconnecting");
    });
    recovering.on("error", (error: Error) => log.warn({ err: error }, "bus connection error"));
    recovering.on("blocked", (reason: string) => log.warn({ reason }, "broker blocked the connection"));
    recovering.on("unblocked", () => log.info("broker unblocked the connection"));
    await recovering.waitForConnect();
    connected = true;
    return connection;
  }

  isConnected(): boolean {
    return this.model !== null;
  }

  /** Adds a user; attaches it at once when connected (its errors are the caller's). */
  async register(user: ChannelUser): Promise<void> {
    this.users.add(user);
    const model = this.model;
    if (!model) return;
    try {
      await user.attach(model);
    } catch (error) {
      this.users.delete(user);
      throw error;
    }
  }

  unregister(user: ChannelUser): void {
    this.users.delete(user);
  }

  /**
   * A user lost its channel while the connection lives on (channel error, consumer cancelled by
   * the broker): attach it again after a pause, with backoff, as long as that connection lasts.
   * If it keeps failing the connection is closed, so that recovery starts from scratch.
   */
  reattach(user: ChannelUser, model: ChannelModel, attempt = 1): void {
    if (this.closing || this.model !== model || !this.users.has(user)) return;
    const delay = Math.min(5000, 100 * 2 ** (attempt - 1));
    setTimeout(() => {
      if (this.closing || this.model !== model || !this.users.has(user)) return;
      user.attach(model).catch((error: unknown) => {
        this.options.logger.warn({ err: error, user: user.name, attempt }, "bus channel reopen failed");
        if (attempt >= 5) model.close().catch(() => undefined);
        else this.reattach(user, model, attempt + 1);
      });
    }, delay).unref();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.recovering?.close();
  }

  private async setup(model: ChannelModel): Promise<void> {
    const log = this.options.logger;
    model.on("error", (error: Error) => log.warn({ err: error }, "bus connection error"));
    model.on("handler-error", (error: Error, event: string) => log.error({ err: error, event }, "bus connection listener threw"));
    model.once("close", (error?: Error) => this.lost(model, error ?? new Error("connection closed")));
    await this.options.prepare(model);
    this.model = model;
    try {
      for (const user of [...this.users]) await user.attach(model);
    } catch (error) {
      this.lost(model, error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    log.info("bus connected");
  }

  private lost(model: ChannelModel, error: Error): void {
    if (this.model !== model) return;
    this.model = null;
    for (const user of this.users) user.detach(error);
  }
}
