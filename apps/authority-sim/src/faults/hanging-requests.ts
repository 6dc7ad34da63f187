import type { Response } from "express";

/**
 * Requests the authority "stops answering": each is held until `hangMs` passes, then its
 * connection is dropped without an answer. Bounded in time, so hung requests never leak, and
 * all of them are dropped at once on shutdown.
 */
export class HangingRequests {
  readonly #held = new Map<Response, NodeJS.Timeout>();

  constructor(public hangMs: number) {}

  get count(): number {
    return this.#held.size;
  }

  hold(res: Response): void {
    const timer = setTimeout(() => this.#drop(res), this.hangMs);
    timer.unref();
    this.#held.set(res, timer);
    res.once("close", () => this.#release(res));
  }

  /** Drops every held connection (shutdown, reset). */
  dropAll(): void {
    for (const res of [...this.#held.keys()]) this.#drop(res);
  }

  #release(res: Response): void {
    const timer = this.#held.get(res);
    if (timer) clearTimeout(timer);
    this.#held.delete(res);
  }

  #drop(res: Response): void {
    this.#release(res);
    res.socket?.destroy();
  }
}
