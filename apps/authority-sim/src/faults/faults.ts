import { z } from "zod";
import type { Target } from "../state/received-log.ts";

/** A change to a target's faults: only the fields given are changed. */
export const faultChangeSchema = z.strictObject({
  /** Answer every request 503 Service Unavailable. */
  down: z.boolean().optional(),
  /** Drop every connection without an answer (the client sees a reset). */
  reset: z.boolean().optional(),
  /** Wait this long before handling each request (it is still processed if the client left). */
  slowMs: z.number().int().min(0).max(600_000).optional(),
  /** Share of requests (0..1) answered with a system error instead of being processed. */
  errorRate: z.number().min(0).max(1).optional(),
  /** "protocol": the tax side answers GovTalk error 1000; "http": HTTP 500. Other targets always HTTP 500. */
  errorMode: z.enum(["protocol", "http"]).optional(),
  /** Never answer: hold the request until the hang time passes, then drop the connection. */
  hang: z.boolean().optional(),
});

export interface FaultSettings {
  down: boolean;
  reset: boolean;
  slowMs: number;
  errorRate: number;
  errorMode: "protocol" | "http";
  hang: boolean;
}

const NO_FAULTS: FaultSettings = { down: false, reset: false, slowMs: 0, errorRate: 0, errorMode: "protocol", hang: false };

/** Faults injected per target through the control API. */
export class Faults {
  readonly #byTarget = new Map<Target, FaultSettings>();

  get(target: Target): FaultSettings {
    return this.#byTarget.get(target) ?? NO_FAULTS;
  }

  /** Merges a change into the target's current faults. */
  set(target: Target, change: z.infer<typeof faultChangeSchema>): FaultSettings {
    const defined = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
    const next = { ...this.get(target), ...defined };
    this.#byTarget.set(target, next);
    return next;
  }

  clear(target?: Target): void {
    if (target) this.#byTarget.delete(target);
    else this.#byTarget.clear();
  }

  all(targets: readonly Target[]): Record<Target, FaultSettings> {
    return Object.fromEntries(targets.map((target) => [target, this.get(target)])) as Record<Target, FaultSettings>;
  }
}
