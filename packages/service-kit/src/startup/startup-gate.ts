import { createServer, type RequestListener, type Server } from "node:http";
import type { Logger } from "pino";
import type { ReadinessCheck } from "../health.ts";

/** Capped exponential backoff with jitter between start-up attempts. */
export interface StartupBackoff {
  /** The delay after the first failure (default 250 ms). */
  initialDelayMs?: number;
  /** The longest delay between attempts (default 5 s). */
  maxDelayMs?: number;
}

/** What a connection needs of the gate: retry `attempt` until it succeeds (packages/bus takes this). */
export interface DependencyWaits {
  connect<T>(dependency: string, attempt: () => Promise<T>): Promise<T>;
}

/** Thrown by `connect` once the gate was stopped (shutdown during start-up). */
export class StartupStoppedError extends Error {
  constructor(dependency: string) {
    super(`start-up stopped while waiting for ${dependency}`);
    this.name = "StartupStoppedError";
  }
}

const DEFAULT_INITIAL_DELAY_MS = 250;
const DEFAULT_MAX_DELAY_MS = 5_000;
const JITTER = 0.2;

/** `scheme://user:password@host` -> `scheme://user:***@host`, anywhere in a text (causes are logged and served). */
export function redactUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi, "$1:***@");
}

/** The delay after failed attempt `attempt` (1-based): doubling from `initialDelayMs`, at most `maxDelayMs`, +-20 % jitter. */
export function startupDelayMs(attempt: number, backoff: StartupBackoff = {}): number {
  const initial = backoff.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  const max = Math.max(initial, backoff.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  const base = Math.min(max / (1 + JITTER), initial * 2 ** (attempt - 1));
  return Math.round(base * (1 + JITTER * (Math.random() * 2 - 1)));
}

/**
 * A process's start-up: each dependency (Postgres, Redis, RabbitMQ) is connected through
 * `connect`, which retries with capped backoff for as long as it takes, logging every failed
 * attempt at warn (cause, attempt, next delay; never a URL's password). Until `ready()` is called
 * the `check` readiness check fails naming what is awaited, so `/readyz` answers 503 while
 * `/healthz` (which checks nothing) keeps answering: an orchestrator leaves the process alive and
 * sends it no work. `stop()` (shutdown) ends a wait at once.
 */
export class StartupGate implements DependencyWaits {
  private readonly waiting = new Map<string, string>();
  private readonly stopper = new AbortController();
  private started = false;

  constructor(
    private readonly logger: Logger,
    private readonly backoff: StartupBackoff = {},
  ) {}

  /** Fails until `ready()`, naming each dependency still awaited and its last failure. */
  readonly check: ReadinessCheck = async () => {
    if (this.started) return;
    const waits = [...this.waiting].map(([name, cause]) => `${name} (${cause})`);
    throw new Error(waits.length > 0 ? `starting: waiting for ${waits.join(", ")}` : "starting");
  };

  /**
   * The checks for `/readyz` (pass this very record to startOpsServer; it is read at each
   * request): `startup` until `ready(checks)`, then the service's own checks in its place.
   */
  readonly checks: Record<string, ReadinessCheck> = { startup: this.check };

  get isReady(): boolean {
    return this.started;
  }

  async connect<T>(dependency: string, attempt: () => Promise<T>): Promise<T> {
    this.waiting.set(dependency, "connecting");
    for (let attempts = 1; ; attempts++) {
      if (this.stopper.signal.aborted) throw new StartupStoppedError(dependency);
      try {
        const value = await attempt();
        this.waiting.delete(dependency);
        if (attempts > 1) this.logger.info({ dependency, attempts }, `${dependency} reachable after ${attempts} attempts`);
        return value;
      } catch (error) {
        if (this.stopper.signal.aborted) throw new StartupStoppedError(dependency);
        const cause = redactUrlCredentials(describe(error));
        const delay = startupDelayMs(attempts, this.backoff);
        this.waiting.set(dependency, cause);
        this.logger.warn(
          { dependency, attempt: attempts, cause, next_attempt_in_ms: delay },
          `${dependency} not reachable at start-up; retrying in ${delay} ms`,
        );
        await pause(delay, this.stopper.signal);
      }
    }
  }

  /** Every dependency is connected and the service serves: `check` passes, and `checks` become `serving`. */
  ready(serving: Record<string, ReadinessCheck> = {}): void {
    this.started = true;
    this.waiting.clear();
    delete this.checks.startup;
    Object.assign(this.checks, serving);
  }

  /** Ends the waits (shutdown): a pending `connect` rejects with StartupStoppedError. */
  stop(): void {
    this.stopper.abort();
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describe).join("; ");
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** What `redisConnection` needs of an ioredis client (service-kit does not depend on ioredis). */
export interface RedisLike {
  readonly status: string;
  connect(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * An attempt for `StartupGate.connect` that resolves once a `lazyConnect` ioredis client is
 * ready. The first attempt starts the connection; while it fails, ioredis reconnects on its own
 * (its retryStrategy) and each later attempt reports the last connection error.
 */
export function redisConnection(redis: RedisLike): () => Promise<void> {
  let lastError: Error | undefined;
  redis.on("error", (error) => {
    lastError = error;
  });
  return async () => {
    if (redis.status === "ready") return;
    if (redis.status === "wait" || redis.status === "end") {
      try {
        await redis.connect();
        return;
      } catch (error) {
        throw lastError ?? error;
      }
    }
    throw lastError ?? new Error(`redis ${redis.status}`);
  };
}

export interface StartingServer {
  server: Server;
  /** From now on every request goes to `handler` (the service's app). */
  serve(handler: RequestListener): void;
}

/**
 * Listens on the service's HTTP port before its dependencies are connected, for services whose
 * ops endpoints share the port with their app (gateway, billing): `/healthz` answers 200,
 * `/readyz` 503 with the gate's state, anything else 503 `SERVICE_UNAVAILABLE` with Retry-After,
 * until `serve(app)` hands the port to the app.
 */
export async function listenWhileStarting(options: { port: number; host?: string; gate: StartupGate }): Promise<StartingServer> {
  const starting: RequestListener = (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    };
    if (path === "/healthz") return send(200, { status: "ok" });
    if (path === "/readyz") {
      options.gate.check().then(
        () => send(503, { status: "not_ready", pid: process.pid, checks: { startup: "starting" } }),
        (error: Error) => send(503, { status: "not_ready", pid: process.pid, checks: { startup: error.message } }),
      );
      return;
    }
    res.setHeader("retry-after", "1");
    send(503, { success: false, error: { code: "SERVICE_UNAVAILABLE", message: "The service is starting; retry shortly." } });
  };
  let handler: RequestListener = starting;
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    server,
    serve(app) {
      handler = app;
    },
  };
}
