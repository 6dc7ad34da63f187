/** Characters of request bodies kept in all (about 32 MB of UTF-16 strings). */
export const RECEIVED_BODIES_BUDGET_CHARS = 16 * 1024 * 1024;
/** Characters kept of one body; the rest is cut (a CT600 is ~3 kB, accounts with their iXBRL ~40 kB). */
export const RECEIVED_BODY_MAX_CHARS = 256 * 1024;

export interface KeptBody {
  text: string;
  /** True when the body was longer than RECEIVED_BODY_MAX_CHARS and only its start is kept. */
  truncated: boolean;
}

/**
 * The (already masked) bodies of the most recent requests, by received-log sequence number,
 * within a budget of characters: the oldest bodies go first when it is exceeded, so memory stays
 * bounded whatever the traffic, and the most recent requests always have theirs.
 */
export class ReceivedBodies {
  readonly #bodies = new Map<number, KeptBody>();
  #chars = 0;

  constructor(
    readonly budgetChars = RECEIVED_BODIES_BUDGET_CHARS,
    readonly maxChars = Math.min(RECEIVED_BODY_MAX_CHARS, budgetChars),
  ) {}

  put(seq: number, text: string): void {
    if (this.budgetChars <= 0) return;
    const truncated = text.length > this.maxChars;
    const kept: KeptBody = { text: truncated ? text.slice(0, this.maxChars) : text, truncated };
    this.#bodies.set(seq, kept);
    this.#chars += kept.text.length;
    for (const [oldest, body] of this.#bodies) {
      if (this.#chars <= this.budgetChars) break;
      this.#bodies.delete(oldest);
      this.#chars -= body.text.length;
    }
  }

  get(seq: number): KeptBody | undefined {
    return this.#bodies.get(seq);
  }

  get chars(): number {
    return this.#chars;
  }

  clear(): void {
    this.#bodies.clear();
    this.#chars = 0;
  }
}
