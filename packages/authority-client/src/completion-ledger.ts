import type { Redis } from "ioredis";

export interface CompletionLedgerOptions {
  redis: Redis;
  /** e.g. `dormant:tax-submitter:done:`; the submission's authority reference is appended. */
  keyPrefix: string;
  /** How long a completion is remembered (longer than any poll command can be redelivered). */
  ttlSeconds: number;
}

/**
 * Submissions whose final outcome was published. A poll command redelivered after that (the
 * broker redelivers what a worker did not ack before it died) finds the record and does nothing:
 * the authority may have forgotten the submission by then (a deleted CT600 answers 2000), and
 * that must not turn into a wrong `error` outcome.
 */
export class CompletionLedger {
  constructor(private readonly options: CompletionLedgerOptions) {}

  /** Records the outcome published for a submission (`outcome` is a short label, never a secret). */
  async markCompleted(reference: string, outcome: string): Promise<void> {
    await this.options.redis.set(
      this.key(reference),
      JSON.stringify({ outcome, at: new Date().toISOString() }),
      "EX",
      this.options.ttlSeconds,
    );
  }

  /** The outcome recorded for a submission, if it completed. */
  async completedOutcome(reference: string): Promise<string | undefined> {
    const text = await this.options.redis.get(this.key(reference));
    if (text === null) return undefined;
    const parsed = JSON.parse(text) as { outcome?: unknown };
    return typeof parsed.outcome === "string" ? parsed.outcome : "completed";
  }

  private key(reference: string): string {
    return `${this.options.keyPrefix}${reference}`;
  }
}
