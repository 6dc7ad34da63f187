import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { z } from "zod";

/**
 * What is known about one submission (one part of one filing) across every worker replica:
 * - in_progress: a worker claimed it and is talking to the authority; `attempt` is what a later
 *   resolver needs to ask the authority whether it arrived, should that worker die (see
 *   resolve-in-doubt.ts);
 * - submitted: the authority acknowledged it; `response` is what the submit RPC answered, and
 *   `follow_up_done` says whether the first poll was scheduled;
 * - uncertain: the attempt failed in a way that may have reached the authority (a timeout after
 *   sending): it is not sent again until the authority itself says it does not have it (with
 *   its `attempt`, kept for that question).
 * A refused or unsent attempt leaves no record, so it can be tried again.
 */
export type SubmissionRecord<R, A = undefined> =
  | { state: "in_progress"; owner: string; started_at: string; attempt?: A }
  | { state: "submitted"; owner: string; submitted_at: string; response: R; follow_up_done: boolean }
  | { state: "uncertain"; owner: string; since: string; reason: string; attempt?: A };

export type ClaimResult<R, A = undefined> = { claimed: true; owner: string } | { claimed: false; record: SubmissionRecord<R, A> };

/** Replaces (or, with an empty value, deletes) the record only if the caller's owner id is in it. */
const REPLACE_IF_OWNER = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local ok, decoded = pcall(cjson.decode, current)
if not ok or type(decoded) ~= 'table' or decoded.owner ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
return 1`;

export interface SubmissionLedgerOptions<R, A = undefined> {
  redis: Redis;
  /** e.g. `dormant:tax-submitter:submit:`; the submission id is appended. */
  keyPrefix: string;
  /** How long a record is kept (and so how long a duplicate is recognised). */
  ttlSeconds: number;
  /** Schema of the stored RPC response (records are parsed on the way back). */
  response: z.ZodType<R>;
  /**
   * Schema of what an attempt keeps for resolving it should it end in doubt (ids the authority
   * can be asked about; never a secret in clear). None: attempts keep nothing.
   */
  attempt?: z.ZodType<A>;
}

/**
 * At-most-once submission records in Redis: a SET NX claim per submission id, then the
 * outcome of the attempt, each written only by the worker that holds the claim. Redis is shared
 * infrastructure here, not worker state: every replica sees the same records, so any of them
 * recognises a duplicate request.
 */
export class SubmissionLedger<R, A = undefined> {
  private readonly recordSchema: z.ZodType<SubmissionRecord<R, A>>;

  constructor(private readonly options: SubmissionLedgerOptions<R, A>) {
    const attempt = (options.attempt ?? z.undefined()).optional();
    this.recordSchema = z.discriminatedUnion("state", [
      z.object({ state: z.literal("in_progress"), owner: z.string(), started_at: z.string(), attempt }),
      z.object({
        state: z.literal("submitted"),
        owner: z.string(),
        submitted_at: z.string(),
        response: options.response,
        follow_up_done: z.boolean(),
      }),
      z.object({ state: z.literal("uncertain"), owner: z.string(), since: z.string(), reason: z.string(), attempt }),
    ]) as z.ZodType<SubmissionRecord<R, A>>;
  }

  /** Claims the submission (keeping `attempt` with the claim), or returns the record of whoever claimed it before. */
  async claim(id: string, attempt?: A): Promise<ClaimResult<R, A>> {
    const owner = randomUUID();
    const record = this.inProgress(owner, attempt);
    for (let tries = 0; tries < 3; tries += 1) {
      const set = await this.options.redis.set(this.key(id), JSON.stringify(record), "EX", this.options.ttlSeconds, "NX");
      if (set === "OK") return { claimed: true, owner };
      const existing = await this.read(id);
      if (existing) return { claimed: false, record: existing };
      // The record went (released) between the two commands: claim again.
    }
    throw new Error(`could not claim submission ${id}: its record keeps changing`);
  }

  async read(id: string): Promise<SubmissionRecord<R, A> | undefined> {
    const text = await this.options.redis.get(this.key(id));
    if (text === null) return undefined;
    return this.recordSchema.parse(JSON.parse(text));
  }

  /**
   * Claims a submission whose attempt was abandoned (its worker died while it was in progress),
   * if the record still names that attempt's owner; answers the new owner, or undefined when
   * another request took it or it changed meanwhile.
   */
  async takeOver(id: string, abandonedOwner: string, attempt?: A): Promise<string | undefined> {
    const owner = randomUUID();
    const record = this.inProgress(owner, attempt);
    return (await this.replaceIfOwner(id, abandonedOwner, record)) ? owner : undefined;
  }

  /**
   * The authority acknowledged the submission (or, asked about an attempt in doubt, said it has
   * it: then `owner` is that attempt's).
   */
  async recordSubmitted(id: string, owner: string, response: R, followUpDone: boolean): Promise<void> {
    const record: SubmissionRecord<R, A> = {
      state: "submitted",
      owner,
      submitted_at: new Date().toISOString(),
      response,
      follow_up_done: followUpDone,
    };
    await this.replace(id, owner, record);
  }

  /** The first poll of an acknowledged submission was scheduled (by its owner or by a duplicate). */
  async markFollowUpDone(id: string): Promise<void> {
    const record = await this.read(id);
    if (record?.state !== "submitted" || record.follow_up_done) return;
    await this.replace(id, record.owner, { ...record, follow_up_done: true });
  }

  /** The attempt may have reached the authority: not sent again until the authority says it does not have it. */
  async markUncertain(id: string, owner: string, reason: string, attempt?: A): Promise<void> {
    await this.replace(id, owner, {
      state: "uncertain",
      owner,
      since: new Date().toISOString(),
      reason,
      ...(attempt === undefined ? {} : { attempt }),
    });
  }

  /**
   * The attempt certainly did not leave a submission at the authority (refused, never sent, or
   * the authority said it does not have it): it may be tried again. Answers whether the record
   * was still `owner`'s (and so is gone now).
   */
  async release(id: string, owner: string): Promise<boolean> {
    return (await this.options.redis.eval(REPLACE_IF_OWNER, 1, this.key(id), owner, "", "0")) === 1;
  }

  /** The record of an attempt `owner` is making now. */
  private inProgress(owner: string, attempt: A | undefined): SubmissionRecord<R, A> {
    return { state: "in_progress", owner, started_at: new Date().toISOString(), ...(attempt === undefined ? {} : { attempt }) };
  }

  /** Writes `record` (with the ledger's TTL) if the stored record still names `owner`; answers whether it did. */
  private async replaceIfOwner(id: string, owner: string, record: SubmissionRecord<R, A>): Promise<boolean> {
    const replaced = await this.options.redis.eval(
      REPLACE_IF_OWNER,
      1,
      this.key(id),
      owner,
      JSON.stringify(record),
      String(this.options.ttlSeconds),
    );
    return replaced === 1;
  }

  private async replace(id: string, owner: string, record: SubmissionRecord<R, A>): Promise<void> {
    if (!(await this.replaceIfOwner(id, owner, record))) throw new Error(`submission ${id} is no longer claimed by this attempt`);
  }

  private key(id: string): string {
    return `${this.options.keyPrefix}${id}`;
  }
}
