export type Target = "tax" | "registry" | "registry-data";
export const TARGETS: readonly Target[] = ["tax", "registry", "registry-data"];

/** One request an authority received, as the control API lists it. Never holds a secret. */
export interface ReceivedEntry {
  seq: number;
  at: string;
  target: Target;
  /** e.g. submit, poll, delete, status, profile, officers, filing-history. */
  kind: string;
  company?: string | undefined;
  correlationId?: string | undefined;
  submissionNumber?: string | undefined;
  irmark?: string | undefined;
  /** What the authority answered: acknowledgement, pending, response, error:<number>, no-answer, ... */
  answer: string;
}

export interface ReceivedQuery {
  target?: Target | undefined;
  company?: string | undefined;
  kind?: string | undefined;
  limit?: number | undefined;
}

/** The last `capacity` requests received, oldest evicted first. */
export class ReceivedLog {
  readonly #entries: ReceivedEntry[] = [];
  #seq = 0;

  constructor(readonly capacity: number) {}

  record(entry: Omit<ReceivedEntry, "seq" | "at">): ReceivedEntry {
    const full: ReceivedEntry = { seq: ++this.#seq, at: new Date().toISOString(), ...entry };
    this.#entries.push(full);
    // Trim in batches (amortised O(1) per record) rather than on every insertion.
    if (this.#entries.length >= this.capacity * 2) this.#entries.splice(0, this.#entries.length - this.capacity);
    return full;
  }

  /** Matching entries, oldest first; with a limit, the most recent `limit` of them. */
  list(query: ReceivedQuery = {}): ReceivedEntry[] {
    const kept = this.#entries.length > this.capacity ? this.#entries.slice(-this.capacity) : this.#entries;
    const matches = kept.filter(
      (e) =>
        (!query.target || e.target === query.target) &&
        (!query.company || e.company === query.company) &&
        (!query.kind || e.kind === query.kind),
    );
    return query.limit !== undefined ? matches.slice(-query.limit) : matches;
  }

  clear(): void {
    this.#entries.length = 0;
  }
}
