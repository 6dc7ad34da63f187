import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a silent listener holds: from its arrival until the sender gave up on it. */
export interface HeldRequest {
  path: string;
  openedAt: number;
  /** When the connection closed (the sender's time-out); absent while it is still held. */
  closedAt?: number;
}

/**
 * A webhook endpoint that never answers: it takes every request in, answers nothing and keeps
 * the connection open until the sender gives up, as a dead agent behind a load balancer does.
 * It records each request's path and how long it was held, so a test can count the attempts in
 * flight at any moment (per path prefix: one prefix per account and mode). `close()` drops every
 * held connection and stops listening, so that later attempts are refused at once.
 */
export class SilentListener {
  readonly held: HeldRequest[] = [];
  private constructor(
    private readonly server: Server,
    /** `http://host:port` (no path: endpoints add their own). */
    readonly baseUrl: string,
  ) {}

  /** `host`: a loopback address of its own (e.g. 127.0.0.2) makes it a destination host of its own. */
  static async start(host = "127.0.0.1"): Promise<SilentListener> {
    let listener: SilentListener | undefined;
    const server = createServer((req, res) => {
      const request: HeldRequest = { path: req.url ?? "/", openedAt: Date.now() };
      listener?.held.push(request);
      req.resume(); // read the body, answer nothing
      res.on("close", () => {
        request.closedAt = Date.now();
      });
    });
    // The sender's time-out decides, not the server's.
    server.requestTimeout = 0;
    server.headersTimeout = 0;
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    listener = new SilentListener(server, `http://${host}:${port}`);
    return listener;
  }

  /** Requests whose path starts with `prefix` held at `at` (now by default). */
  inFlight(prefix = "/", at = Date.now()): number {
    return this.held.filter((r) => r.path.startsWith(prefix) && r.openedAt <= at && (r.closedAt === undefined || r.closedAt > at)).length;
  }

  /** The most requests whose path starts with `prefix` held at once between `from` and `to`. */
  peakInFlight(prefix = "/", from = 0, to = Number.POSITIVE_INFINITY): number {
    const matching = this.held.filter((r) => r.path.startsWith(prefix));
    // Sweep the opens and closes in time order (a close before an open at the same instant).
    const changes = matching.flatMap((r) => [
      { at: r.openedAt, delta: 1 },
      ...(r.closedAt === undefined ? [] : [{ at: r.closedAt, delta: -1 }]),
    ]);
    changes.sort((a, b) => a.at - b.at || a.delta - b.delta);
    let current = 0;
    let peak = this.inFlight(prefix, from);
    for (const change of changes) {
      current += change.delta;
      if (change.at >= from && change.at <= to) peak = Math.max(peak, current);
    }
    return peak;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
