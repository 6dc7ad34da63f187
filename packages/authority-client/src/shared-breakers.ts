import { randomUUID } from "node:crypto";
import { LuaScript, type Logger } from "@dormant/service-kit";
import type { Redis } from "ioredis";

/** What a breaker does when another replica reports its breaker of the same name open or closed. */
export interface SharedBreakerPeer {
  /** Another replica opened it: open this one too (fail fast until its own reset timeout). */
  openedElsewhere(): void;
  /** Another replica's half-open trial succeeded: close this one. */
  closedElsewhere(): void;
  /** Whether this replica's breaker is closed (a closed one that misses an open is opened by the sync). */
  isClosed(): boolean;
}

export interface SharedBreakerBoardOptions {
  /** The worker's command connection (the board makes its own subscriber from it). */
  redis: Redis;
  /** Prefix of the board's keys and channel, e.g. `dormant:breakers:` (shared by every replica). */
  keyPrefix: string;
  logger: Logger;
  /** How often the open breakers are read back, in case a published event was missed. */
  syncIntervalMs?: number;
}

/** KEYS: the open key, the probe key; ARGV: replica, ttl ms. 1 when this replica takes the trial. */
const CLAIM_PROBE = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('SET', KEYS[2], ARGV[1], 'PX', tonumber(ARGV[2]), 'NX') then return 1 end
return 0
`);

interface BoardEvent {
  breaker: string;
  event: "open" | "close";
  from: string;
}

/**
 * Breaker state shared by every replica through Redis (opossum keeps its state per process).
 *
 * - A replica whose breaker opens writes `<prefix><breaker>:open` with a TTL of the reset timeout
 *   and publishes `open` on `<prefix>events`; every other replica opens its breaker of that name
 *   (pub/sub: milliseconds), and a read of the open keys every `syncIntervalMs` (500 ms) catches
 *   an event a replica missed (its subscriber was reconnecting), so all stop sending within a
 *   second.
 * - Half-open, only the replica that takes `<prefix><breaker>:probe` (SET NX, expiring after the
 *   request timeout; not while the open key exists) sends the trial; the others refuse as if
 *   open, so there is one trial per reset timeout across all replicas. Its success deletes both keys
 *   and publishes `close` (every replica closes); its failure opens it again and publishes `open`.
 * - Redis unavailable: each breaker works on its own, as before (reports are logged and dropped,
 *   a probe that cannot be claimed is sent).
 */
export class SharedBreakerBoard {
  readonly replica = randomUUID();
  private readonly peers = new Map<string, SharedBreakerPeer>();
  private readonly subscriber: Redis;
  private readonly channel: string;
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;

  constructor(private readonly options: SharedBreakerBoardOptions) {
    this.channel = `${options.keyPrefix}events`;
    this.subscriber = options.redis.duplicate({ lazyConnect: true });
    this.subscriber.on("error", (error: Error) => options.logger.warn({ err: error }, "redis subscriber (shared breakers) error"));
    this.subscriber.on("message", (_channel: string, text: string) => this.onEvent(text));
  }

  /** Subscribes to the other replicas' events and starts the periodic sync. */
  async start(): Promise<void> {
    await this.subscriber.connect();
    await this.subscriber.subscribe(this.channel);
    this.timer = setInterval(() => void this.sync(), this.options.syncIntervalMs ?? 500);
    this.timer.unref();
    await this.sync();
  }

  register(breaker: string, peer: SharedBreakerPeer): void {
    this.peers.set(breaker, peer);
  }

  /** This replica's breaker opened: the others fail fast for `resetTimeoutMs`. */
  async reportOpen(breaker: string, resetTimeoutMs: number): Promise<void> {
    await this.report(breaker, "open", (multi) =>
      multi.set(this.key(breaker, "open"), this.replica, "PX", resetTimeoutMs).del(this.key(breaker, "probe")),
    );
  }

  /** This replica's trial succeeded: every replica closes. */
  async reportClose(breaker: string): Promise<void> {
    await this.report(breaker, "close", (multi) => multi.del(this.key(breaker, "open"), this.key(breaker, "probe")));
  }

  /**
   * Half-open: whether this replica sends the trial. Not while a breaker of the name is reported
   * open (a trial failed elsewhere a moment ago) nor while another replica holds the trial; true
   * when Redis cannot say (the breaker decides alone).
   */
  async claimProbe(breaker: string, ttlMs: number): Promise<boolean> {
    try {
      return (
        (await CLAIM_PROBE.run(this.options.redis, [this.key(breaker, "open"), this.key(breaker, "probe")], [this.replica, ttlMs])) === 1
      );
    } catch (error) {
      this.options.logger.warn({ err: error, breaker }, "shared breaker state unavailable: this replica sends its own trial");
      return true;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  private key(breaker: string, what: "open" | "probe"): string {
    return `${this.options.keyPrefix}${breaker}:${what}`;
  }

  private async report(
    breaker: string,
    event: BoardEvent["event"],
    write: (multi: ReturnType<Redis["multi"]>) => ReturnType<Redis["multi"]>,
  ): Promise<void> {
    const message: BoardEvent = { breaker, event, from: this.replica };
    try {
      await write(this.options.redis.multi()).publish(this.channel, JSON.stringify(message)).exec();
    } catch (error) {
      this.options.logger.warn({ err: error, breaker, event }, "shared breaker state unavailable: the other replicas were not told");
    }
  }

  private onEvent(text: string): void {
    let message: BoardEvent;
    try {
      message = JSON.parse(text) as BoardEvent;
    } catch {
      return;
    }
    if (message.from === this.replica) return;
    const peer = this.peers.get(message.breaker);
    if (!peer) return;
    if (message.event === "open") peer.openedElsewhere();
    else if (message.event === "close") peer.closedElsewhere();
  }

  /** Opens every closed breaker whose open key another replica wrote (a missed event). */
  private async sync(): Promise<void> {
    if (this.syncing || this.peers.size === 0) return;
    this.syncing = true;
    try {
      const names = [...this.peers.keys()];
      const owners = await this.options.redis.mget(...names.map((name) => this.key(name, "open")));
      names.forEach((name, index) => {
        const owner = owners[index];
        const peer = this.peers.get(name);
        if (owner && owner !== this.replica && peer?.isClosed()) peer.openedElsewhere();
      });
    } catch {
      // Redis unavailable: each breaker works on its own until it is back.
    } finally {
      this.syncing = false;
    }
  }
}
