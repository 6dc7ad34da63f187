import type { NextFunction, Request, RequestHandler, Response } from "express";
import { BoundedMap } from "../state/bounded-map.ts";

const WINDOW_MS = 5 * 60_000;

/**
 * The registry's limit of N requests per API key per 5-minute window (fixed windows), with its
 * X-Ratelimit-* headers and 429 when exceeded. A limit of 0 turns it off.
 */
export class RateLimiter {
  readonly #windows = new BoundedMap<string, { start: number; count: number }>(10_000);

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  middleware(): RequestHandler {
    return (_req: Request, res: Response, next: NextFunction) => {
      if (this.limit === 0) return next();
      const key = String(res.locals.apiKey ?? "");
      const now = this.now();
      let window = this.#windows.get(key);
      if (!window || now - window.start >= WINDOW_MS) {
        window = { start: now, count: 0 };
        this.#windows.set(key, window);
      }
      window.count += 1;
      res.set({
        "X-Ratelimit-Limit": String(this.limit),
        "X-Ratelimit-Remain": String(Math.max(0, this.limit - window.count)),
        "X-Ratelimit-Reset": String(Math.ceil((window.start + WINDOW_MS) / 1000)),
        "X-Ratelimit-Window": "5m",
      });
      if (window.count > this.limit) {
        res.status(429).json({ error: "Rate limit exceeded", type: "ch:service" });
        return;
      }
      next();
    };
  }

  reset(): void {
    this.#windows.clear();
  }
}
