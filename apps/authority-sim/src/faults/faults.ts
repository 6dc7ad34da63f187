import { z } from "zod";
import type { Target } from "../state/received-log.ts";

/** How a lost answer is lost: the connection held open with no answer, or closed without one. */
export const LOSE_ANSWER_MODES = ["hold", "close"] as const;
export type LoseAnswerMode = (typeof LOSE_ANSWER_MODES)[number];

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
  /** Tax only: answer HMRC's edge "Access Denied" HTML page with HTTP 403; nothing is processed. */
  edge403: z.boolean().optional(),
  /**
   * Submissions only (tax submit, registry FormSubmission): take the submission in as usual
   * (checked, recorded, decided), then lose the answer: "hold" the connection open without it,
   * or "close" the connection. null turns it off.
   */
  loseAnswer: z.enum(LOSE_ANSWER_MODES).nullable().optional(),
  /** With `loseAnswer`: lose only the next N submission answers, then turn off (absent: every one). */
  loseAnswerCount: z.number().int().positive().max(1_000_000).optional(),
});

export type FaultChange = z.infer<typeof faultChangeSchema>;

export interface FaultSettings {
  down: boolean;
  reset: boolean;
  slowMs: number;
  errorRate: number;
  errorMode: "protocol" | "http";
  hang: boolean;
  edge403: boolean;
  loseAnswer: LoseAnswerMode | null;
  /** Submission answers still to lose; null: every one while `loseAnswer` is set. */
  loseAnswerCount: number | null;
}

const NO_FAULTS: FaultSettings = {
  down: false,
  reset: false,
  slowMs: 0,
  errorRate: 0,
  errorMode: "protocol",
  hang: false,
  edge403: false,
  loseAnswer: null,
  loseAnswerCount: null,
};

/** Faults injected per target through the control API. */
export class Faults {
  readonly #byTarget = new Map<Target, FaultSettings>();

  get(target: Target): FaultSettings {
    return this.#byTarget.get(target) ?? NO_FAULTS;
  }

  /**
   * Merges a change into the target's current faults. `loseAnswer` and `loseAnswerCount` go
   * together: setting `loseAnswer` resets the count to the one given (none: every answer).
   */
  set(target: Target, change: FaultChange): FaultSettings {
    const defined: Partial<FaultSettings> = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
    if (change.loseAnswer !== undefined) defined.loseAnswerCount = change.loseAnswer === null ? null : (change.loseAnswerCount ?? null);
    const next = { ...this.get(target), ...defined };
    this.#byTarget.set(target, next);
    return next;
  }

  /**
   * Whether the answer to the submission just taken in is to be lost, and how; counts it
   * against `loseAnswerCount` (the fault turns itself off after the last one).
   */
  takeLostAnswer(target: Target): LoseAnswerMode | undefined {
    const current = this.get(target);
    if (current.loseAnswer === null) return undefined;
    const mode = current.loseAnswer;
    if (current.loseAnswerCount !== null) {
      const left = current.loseAnswerCount - 1;
      this.#byTarget.set(target, { ...current, loseAnswerCount: left > 0 ? left : null, loseAnswer: left > 0 ? mode : null });
    }
    return mode;
  }

  clear(target?: Target): void {
    if (target) this.#byTarget.delete(target);
    else this.#byTarget.clear();
  }

  all(targets: readonly Target[]): Record<Target, FaultSettings> {
    return Object.fromEntries(targets.map((target) => [target, this.get(target)])) as Record<Target, FaultSettings>;
  }
}
