import type { LoseAnswerMode } from "../faults/faults.ts";
import { ReceivedBodies } from "./received-bodies.ts";

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
  /** The answer was decided but lost by the `loseAnswer` fault (held open, or connection closed). */
  lostAnswer?: LoseAnswerMode | undefined;
}

/** An entry listed with its body (`?body=true`): the request as received, secrets masked. */
export interface ReceivedEntryWithBody extends ReceivedEntry {
  /** null when none is kept: no body (GET), evicted by the body budget, or it could not be masked. */
  body: string | null;
  /** Present (true) when only the start of a long body is kept. */
  bodyTruncated?: true;
}

export interface ReceivedQuery {
  target?: Target | undefined;
  company?: string | undefined;
  kind?: string | undefined;
  limit?: number | undefined;
}

/**
 * The last `capacity` requests received, oldest evicted first, and the masked bodies of the most
 * recent ones within the bodies' own budget (ReceivedBodies).
 */
export class ReceivedLog {
  readonly #entries: ReceivedEntry[] = [];
  readonly #bodies: ReceivedBodies;
  #seq = 0;

  constructor(
    readonly capacity: number,
    bodies = new ReceivedBodies(),
  ) {
    this.#bodies = bodies;
  }

  /** Records an entry and, when given, its body (already masked: the log never holds a secret). */
  record(entry: Omit<ReceivedEntry, "seq" | "at">, body?: string): ReceivedEntry {
    const full: ReceivedEntry = { seq: ++this.#seq, at: new Date().toISOString(), ...entry };
    if (full.lostAnswer === undefined) delete full.lostAnswer;
    this.#entries.push(full);
    if (body !== undefined) this.#bodies.put(full.seq, body);
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

  /** `list` with each entry's kept body. */
  listWithBodies(query: ReceivedQuery = {}): ReceivedEntryWithBody[] {
    return this.list(query).map((entry) => {
      const kept = this.#bodies.get(entry.seq);
      return { ...entry, body: kept?.text ?? null, ...(kept?.truncated ? { bodyTruncated: true as const } : {}) };
    });
  }

  clear(): void {
    this.#entries.length = 0;
    this.#bodies.clear();
  }
}
