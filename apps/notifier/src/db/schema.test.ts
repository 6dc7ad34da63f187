import { createTestDatabase, type TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeNotifierDb, createNotifierDb, type NotifierDb } from "./client.ts";
import { migrateNotifierDatabase } from "./migrations.ts";

// Proves that the hand-written migration SQL and prisma/schema.prisma agree (every model written and
// read back through the generated client on a database migrated from empty), and the rules only the
// SQL carries: allowed values, one delivery per (event, endpoint), one row per attempt number, and
// at most 1 KiB of response body.
describe("notifier database schema", () => {
  let database: TestDatabase;
  let db: NotifierDb;

  beforeAll(async () => {
    database = await createTestDatabase({ label: "ntf_schema" });
    expect(await migrateNotifierDatabase(database.url)).toEqual([
      "20261127170000_notifier_webhooks",
      "20261127173000_event_webhook_id_per_account",
      "20261127174000_settled_deliveries_by_age",
      "20261202090000_attempt_slots",
    ]);
    expect(await migrateNotifierDatabase(database.url)).toEqual([]);
    db = createNotifierDb(database.url);
  });
  afterAll(async () => {
    if (db) await closeNotifierDb(db);
    await database?.drop();
  });

  it("writes and reads every model through the Prisma client", async () => {
    const { prisma } = db;
    await prisma.endpoint.create({
      data: {
        id: "we_schema000000000000000001",
        accountId: "acc_1",
        mode: "live",
        url: "https://agent.example.com/hooks",
        events: ["filing.accepted"],
        secretSealed: { alg: "A256GCM", kid: "k1", iv: "aa==", tag: "bb==", ciphertext: "cc==" },
      },
    });
    await prisma.event.create({
      data: {
        id: "evt_schema000000000001",
        webhookId: "evt_schema000000000001",
        accountId: "acc_1",
        mode: "live",
        type: "filing.accepted",
        payload: { a: 1 },
      },
    });
    await prisma.delivery.create({
      data: { id: "wd_schema000000000000000001", eventId: "evt_schema000000000001", endpointId: "we_schema000000000000000001" },
    });
    await prisma.attempt.create({
      data: {
        deliveryId: "wd_schema000000000000000001",
        endpointId: "we_schema000000000000000001",
        eventId: "evt_schema000000000001",
        attempt: 1,
        attemptedAt: new Date(),
        outcome: "failed",
        statusCode: 500,
        durationMs: 12,
        responseBody: "oops",
      },
    });
    const delivery = await prisma.delivery.findUniqueOrThrow({
      where: { id: "wd_schema000000000000000001" },
      include: { attemptRows: true, endpoint: true, event: true },
    });
    expect(delivery).toMatchObject({ state: "pending", attempts: 0, endpoint: { status: "enabled" }, event: { payload: { a: 1 } } });
    expect(delivery.attemptRows).toHaveLength(1);
    const expiresAt = new Date(Date.now() + 20_000);
    await prisma.attemptSlot.create({
      data: {
        deliveryId: "wd_schema000000000000000001",
        endpointId: "we_schema000000000000000001",
        accountKey: "acc_schema:live",
        hostKey: "live:agent.example.com",
        expiresAt,
      },
    });
    expect(await prisma.attemptSlot.findMany()).toEqual([
      {
        deliveryId: "wd_schema000000000000000001",
        endpointId: "we_schema000000000000000001",
        accountKey: "acc_schema:live",
        hostKey: "live:agent.example.com",
        expiresAt,
      },
    ]);
  });

  it("refuses values outside the allowed sets, a second delivery of an event to an endpoint, and long response bodies", async () => {
    const { pool } = db;
    await expect(pool.query("UPDATE endpoints SET mode = 'other'")).rejects.toThrow(/endpoints_mode_check/);
    await expect(pool.query("UPDATE endpoints SET status = 'paused'")).rejects.toThrow(/endpoints_status_check/);
    await expect(pool.query("UPDATE deliveries SET state = 'lost'")).rejects.toThrow(/deliveries_state_check/);
    await expect(
      pool.query(
        "INSERT INTO deliveries (id, event_id, endpoint_id) VALUES ('wd_schema000000000000000002', 'evt_schema000000000001', 'we_schema000000000000000001')",
      ),
    ).rejects.toThrow(/deliveries_event_id_endpoint_id_key/);
    await expect(pool.query("UPDATE attempts SET response_body = repeat('x', 1025)")).rejects.toThrow(/attempts_response_body_check/);
    await expect(pool.query("UPDATE attempts SET response_body = repeat('é', 512)")).resolves.toBeDefined();
  });
});
