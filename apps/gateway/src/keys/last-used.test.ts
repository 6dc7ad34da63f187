import type { TestDatabase } from "@dormant/testing";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayDb, type GatewayDb } from "../db/client.ts";
import { createGatewayTestDatabase } from "../test-support/test-database.ts";
import { createLastUsedRecorder, LAST_USED_INTERVAL_MS } from "./last-used.ts";

describe("last_used_at recorder (at most once a minute per key, off the request's path)", () => {
  let database: TestDatabase;
  let db: GatewayDb;
  const warnings: unknown[] = [];
  const logger = { warn: (fields: unknown) => void warnings.push(fields) };

  beforeAll(async () => {
    database = await createGatewayTestDatabase("last_used");
    db = createGatewayDb(database.url);
    await db.account.create({ data: { id: "acc_lastused", name: "Last Used Ltd", openingBalancePence: 0n } });
    for (const keyId of ["keyA", "keyB"]) {
      await db.apiKey.create({ data: { keyId, accountId: "acc_lastused", mode: "live", secretHash: "a".repeat(64) } });
    }
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  /** The real database, counting the writes. */
  const counting = () => {
    const writes: unknown[][] = [];
    return {
      writes,
      db: {
        $executeRaw: ((query: TemplateStringsArray, ...values: unknown[]) => {
          writes.push(values);
          return db.$executeRaw(query, ...values);
        }) as GatewayDb["$executeRaw"],
      },
    };
  };
  const lastUsedOf = async (keyId: string) => (await db.apiKey.findUniqueOrThrow({ where: { keyId } })).lastUsedAt;

  it("writes a key's first use, then nothing more until the interval has passed, keys counted apart", async () => {
    let clock = 1_000_000;
    const store = counting();
    const recorder = createLastUsedRecorder({ db: store.db, logger, now: () => clock });
    recorder.touch("keyA");
    const first = await waitFor(() => lastUsedOf("keyA"), { what: "keyA's last_used_at" });
    for (let i = 0; i < 100; i++) recorder.touch("keyA");
    clock += LAST_USED_INTERVAL_MS - 1;
    recorder.touch("keyA");
    recorder.touch("keyB");
    expect(store.writes).toEqual([["keyA"], ["keyB"]]);
    clock += 1;
    recorder.touch("keyA");
    expect(store.writes).toEqual([["keyA"], ["keyB"], ["keyA"]]);
    await waitFor(async () => ((await lastUsedOf("keyA"))?.getTime() ?? 0) > (first?.getTime() ?? 0), { what: "keyA rewritten" });
    expect(await lastUsedOf("keyB")).not.toBeNull();
  });

  it("never waits for the write: touch returns while the database has not answered", () => {
    let started = 0;
    const recorder = createLastUsedRecorder({
      db: {
        // A database that never answers.
        $executeRaw: (() => {
          started++;
          return new Promise(() => {});
        }) as unknown as GatewayDb["$executeRaw"],
      },
      logger,
    });
    expect(recorder.touch("keyA")).toBeUndefined();
    expect(started).toBe(1);
  });

  it("logs a failed write at warn with the key id only, and tries again in the next interval", async () => {
    let clock = 0;
    let calls = 0;
    warnings.length = 0;
    const recorder = createLastUsedRecorder({
      db: {
        $executeRaw: (() => {
          calls++;
          return Promise.reject(new Error("database unreachable"));
        }) as unknown as GatewayDb["$executeRaw"],
      },
      logger,
      now: () => clock,
    });
    recorder.touch("keyA");
    recorder.touch("keyA");
    await waitFor(() => warnings.length === 1, { what: "the warning" });
    expect(warnings[0]).toMatchObject({ key_id: "keyA", err: expect.objectContaining({ message: "database unreachable" }) });
    clock += LAST_USED_INTERVAL_MS;
    recorder.touch("keyA");
    expect(calls).toBe(2);
  });
});
