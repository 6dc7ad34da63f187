import type { Logger } from "@dormant/service-kit";
import CircuitBreaker from "opossum";
import type { AuthorityLease, AuthorityLimiter } from "./authority-limits.ts";
import { BREAKER_STATE_VALUE, type BreakerMetrics } from "./breaker-metrics.ts";
import type { BreakerSettings } from "./breaker-settings.ts";
import { AuthorityCallAbortedError, AuthorityUnavailableError, isAuthorityFailure } from "./errors.ts";
import type { SharedBreakerBoard } from "./shared-breakers.ts";

export type BreakerState = keyof typeof BREAKER_STATE_VALUE;

/** Work done through the breaker: it must pass `signal` to its I/O so that aborting stops it. */
export type AuthorityWork<T> = (signal: AbortSignal) => Promise<T>;

export interface RunOptions {
  /** The caller's own signal (handler timeout, shutdown): aborting it is not an authority failure. */
  signal?: AbortSignal;
  /** A shorter timeout than the breaker's for this call (e.g. a poll close to its deadline). */
  timeoutMs?: number;
}

/** One call as opossum sees it: a controller of its own, so a timeout aborts this call only. */
interface Call {
  controller: AbortController;
  work: AuthorityWork<unknown>;
  signal: AbortSignal;
}

export interface AuthorityBreakerOptions {
  /** Names the breaker in metrics and logs, e.g. `tax-submission`. */
  name: string;
  settings: BreakerSettings;
  metrics: BreakerMetrics;
  logger: Logger;
  /** The limits toward the breaker's authority shared by all replicas (none: unlimited). */
  limiter?: AuthorityLimiter | undefined;
  /** Breaker state shared with the other replicas (none: this process's breaker only). */
  shared?: SharedBreakerBoard | undefined;
}

function isOpossumError(error: unknown, code: string): boolean {
  return error instanceof Error && CircuitBreaker.isOurError(error) && (error as Error & { code?: string }).code === code;
}

/**
 * An opossum breaker guarding one authority endpoint. Each call gets an AbortController of its
 * own, aborted when opossum's timeout fires, so the request really stops (opossum's shared
 * `abortController` option would abort every call in flight and stay aborted). Only authority
 * failures count (timeouts, HTTP 5xx, broken connections, the authority's own system errors:
 * AuthorityUnavailableError); answers that reject our message, HTTP 4xx and the caller's own
 * aborts do not, and close a half-open breaker like any answer. Open, it fails fast with
 * AuthorityUnavailableError("breaker_open") carrying the seconds until it lets a trial through.
 *
 * With a `shared` board, its opening and closing is the same in every replica (an open elsewhere
 * opens this one; half-open, only one replica sends the trial: SharedBreakerBoard). With a
 * `limiter`, each call first waits for a slot under the limits shared by all replicas (at most
 * its timeout, or the caller's signal), then holds it until its answer, failure or abort.
 */
export class AuthorityBreaker {
  readonly name: string;
  private readonly breaker: CircuitBreaker<[Call], unknown>;
  private readonly settings: BreakerSettings;
  private readonly metrics: BreakerMetrics;
  private readonly limiter: AuthorityLimiter | undefined;
  private readonly shared: SharedBreakerBoard | undefined;
  private openedAt = 0;
  /** Set while this breaker follows another replica's open or close (not reported back). */
  private followingPeer = false;

  constructor(options: AuthorityBreakerOptions) {
    const { name, settings, metrics, logger } = options;
    this.name = name;
    this.settings = settings;
    this.metrics = metrics;
    this.limiter = options.limiter;
    this.shared = options.shared;
    this.breaker = new CircuitBreaker<[Call], unknown>(async (call: Call) => call.work(call.signal), {
      name,
      timeout: settings.timeoutMs,
      errorThresholdPercentage: settings.errorThresholdPercentage,
      volumeThreshold: settings.volumeThreshold,
      rollingCountTimeout: settings.rollingWindowMs,
      resetTimeout: settings.resetTimeoutMs,
      errorFilter: (error: unknown) => !(isAuthorityFailure(error) || isOpossumError(error, "ETIMEDOUT")),
    });
    // opossum passes the call's arguments to its timeout listeners: abort exactly that call.
    this.breaker.on("timeout", (_error: Error, _latencyMs?: number, args?: [Call]) => {
      args?.[0].controller.abort(
        new AuthorityUnavailableError("timeout", `${name}: no answer within ${settings.timeoutMs} ms`, { maybeReceived: true }),
      );
    });
    this.breaker.on("failure", (error: Error) => {
      const reason = error instanceof AuthorityUnavailableError ? error.reason : "timeout";
      metrics.failures.inc({ breaker: name, reason });
    });
    this.breaker.on("open", () => {
      this.openedAt = Date.now();
      metrics.state.set({ breaker: name }, BREAKER_STATE_VALUE.open);
      metrics.opened.inc({ breaker: name });
      if (this.followingPeer) {
        metrics.shared.inc({ breaker: name, event: "opened_by_peer" });
        logger.warn(
          { breaker: name, reset_timeout_ms: settings.resetTimeoutMs },
          "authority breaker opened by another replica: failing fast",
        );
        return;
      }
      logger.warn({ breaker: name, reset_timeout_ms: settings.resetTimeoutMs }, "authority breaker opened: failing fast");
      void this.shared?.reportOpen(name, settings.resetTimeoutMs);
    });
    this.breaker.on("halfOpen", () => {
      metrics.state.set({ breaker: name }, BREAKER_STATE_VALUE.half_open);
      logger.info({ breaker: name }, "authority breaker half-open: letting a trial call through");
    });
    this.breaker.on("close", () => {
      metrics.state.set({ breaker: name }, BREAKER_STATE_VALUE.closed);
      if (this.followingPeer) {
        metrics.shared.inc({ breaker: name, event: "closed_by_peer" });
        logger.info({ breaker: name }, "authority breaker closed: another replica's trial succeeded");
        return;
      }
      logger.info({ breaker: name }, "authority breaker closed");
      void this.shared?.reportClose(name);
    });
    metrics.state.set({ breaker: name }, BREAKER_STATE_VALUE.closed);
    this.shared?.register(name, {
      openedElsewhere: () => {
        if (this.breaker.opened || this.breaker.isShutdown) return;
        this.followPeer(() => this.breaker.open());
      },
      closedElsewhere: () => {
        if (this.breaker.closed || this.breaker.isShutdown) return;
        this.followPeer(() => this.breaker.close());
      },
      isClosed: () => this.breaker.closed,
    });
  }

  private followPeer(change: () => void): void {
    this.followingPeer = true;
    try {
      change();
    } finally {
      this.followingPeer = false;
    }
  }

  get state(): BreakerState {
    if (this.breaker.opened) return "open";
    if (this.breaker.halfOpen) return "half_open";
    return "closed";
  }

  /** Seconds until an open breaker lets a trial call through (at least 1). */
  retryAfterSeconds(): number {
    const remaining = this.openedAt + this.settings.resetTimeoutMs - Date.now();
    return Math.max(1, Math.ceil(remaining / 1000));
  }

  /**
   * Runs `work` through the breaker. Rejects with AuthorityUnavailableError when the breaker is
   * open, the call timed out (its signal was aborted) or the work reported an authority failure;
   * with AuthorityCallAbortedError when the caller's signal aborted it; with the work's own error
   * otherwise.
   */
  async run<T>(work: AuthorityWork<T>, options: RunOptions = {}): Promise<T> {
    if (this.breaker.halfOpen && this.shared && !(await this.shared.claimProbe(this.name, this.settings.timeoutMs + 1_000))) {
      // Another replica sends the trial; this one fails fast until it closes or opens again.
      this.metrics.shared.inc({ breaker: this.name, event: "probe_left_to_peer" });
      throw this.refused(1);
    }
    let lease: AuthorityLease | undefined;
    let timeoutMs = options.timeoutMs;
    if (this.limiter && !this.breaker.opened) {
      const waitStarted = performance.now();
      lease = await this.limiter.acquire({ signal: options.signal, maxWaitMs: timeoutMs ?? this.settings.timeoutMs });
      if (timeoutMs !== undefined) timeoutMs = Math.max(1, Math.floor(timeoutMs - (performance.now() - waitStarted)));
    }
    try {
      return await this.fire(work, options.signal, timeoutMs);
    } finally {
      lease?.release();
    }
  }

  private async fire<T>(work: AuthorityWork<T>, callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): Promise<T> {
    const controller = new AbortController();
    const signal = callerSignal ? AbortSignal.any([controller.signal, callerSignal]) : controller.signal;
    const timer =
      timeoutMs !== undefined && timeoutMs < this.settings.timeoutMs
        ? setTimeout(() => {
            controller.abort(
              new AuthorityUnavailableError("timeout", `${this.name}: no answer within ${timeoutMs} ms`, { maybeReceived: true }),
            );
          }, timeoutMs)
        : undefined;
    const end = this.metrics.duration.startTimer({ breaker: this.name });
    try {
      const result = (await this.breaker.fire({ controller, work, signal })) as T;
      end({ outcome: "success" });
      return result;
    } catch (error) {
      const translated =
        callerSignal?.aborted && !controller.signal.aborted ? new AuthorityCallAbortedError(this.name, error) : this.translate(error);
      end({ outcome: this.outcomeOf(translated) });
      throw translated;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** Stops the breaker's timers (at shutdown). */
  shutdown(): void {
    this.breaker.shutdown();
  }

  private translate(error: unknown): unknown {
    if (isOpossumError(error, "EOPENBREAKER") || isOpossumError(error, "ESHUTDOWN")) {
      return this.refused(this.state === "open" ? this.retryAfterSeconds() : 1);
    }
    if (isOpossumError(error, "ETIMEDOUT")) {
      return new AuthorityUnavailableError("timeout", `${this.name}: no answer within ${this.settings.timeoutMs} ms`, {
        maybeReceived: true,
      });
    }
    return error;
  }

  /** The breaker's refusal to send (counted as rejected). */
  private refused(retryAfterSeconds: number): AuthorityUnavailableError {
    this.metrics.rejected.inc({ breaker: this.name });
    return new AuthorityUnavailableError(
      "breaker_open",
      `${this.name}: the authority is failing; not calling it for ${retryAfterSeconds} s`,
      {
        maybeReceived: false,
        retryAfterSeconds,
      },
    );
  }

  private outcomeOf(error: unknown): string {
    if (error instanceof AuthorityUnavailableError) return error.reason === "breaker_open" ? "rejected" : "failure";
    return error instanceof AuthorityCallAbortedError ? "aborted" : "error";
  }
}
