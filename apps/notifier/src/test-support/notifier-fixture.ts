import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { connectBus, type Bus } from "@dormant/bus";
import { NOTIFIER_RPC_CATALOG, PLATFORM_MESSAGE_CATALOG, PLATFORM_TOPOLOGY, type Filing, type WebhookCaller } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, type TestDatabase, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll } from "vitest";
import { closeNotifierDb, createNotifierDb, type NotifierDb } from "../db/client.ts";
import { loadNotifierConfig } from "../env.ts";
import { startNotifier, type NotifierService } from "../service.ts";
import { createNotifierTestDatabase } from "./test-database.ts";

/** The other side of the bus: the gateway (RPCs, sandbox events) and the filing service (filing events). */
export type PlatformSideBus = Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof NOTIFIER_RPC_CATALOG>;

/** Short timings so that retries, time-outs and disabling happen within seconds. */
export const FAST_SETTINGS: Record<string, string> = {
  WEBHOOK_RETRY_SCHEDULE_SECONDS: "1",
  WEBHOOK_TIMEOUT_MS: "2000",
  WEBHOOK_SWEEP_INTERVAL_MS: "500",
  WEBHOOK_SWEEP_OVERDUE_SECONDS: "2",
  WEBHOOK_BACKLOG_INTERVAL_MS: "500",
};

export interface NotifierFixture {
  readonly db: NotifierDb;
  readonly vhost: TestVhost;
  readonly notifier: NotifierService;
  readonly platform: PlatformSideBus;
  /** Every log line the notifier wrote (info and up), when the fixture was asked to capture them. */
  readonly logs: string[];
  start(): Promise<NotifierService>;
  stop(): Promise<void>;
  caller(mode?: "live" | "test"): WebhookCaller;
  /** Publishes a filing event on filing.events as the filing service's outbox relay would. */
  publishAccepted(
    accountId: string,
    options?: { messageId?: string; withoutFiling?: boolean },
  ): Promise<{ messageId: string; filingId: string }>;
}

/**
 * Test support: the real notifier in-process on a database and a RabbitMQ vhost of the test file's
 * own, plus a bus client playing the gateway and the filing service. Everything closed at the end.
 */
export function useNotifier(label: string, env: Record<string, string> = {}, options: { captureLogs?: boolean } = {}): NotifierFixture {
  const logs: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  let database: TestDatabase;
  let vhost: TestVhost;
  let db: NotifierDb;
  let notifier: NotifierService | null = null;
  let platform: PlatformSideBus;

  const start = async () => {
    const config = loadNotifierConfig({
      NODE_ENV: "test",
      NOTIFIER_DATABASE_URL: database.url,
      AMQP_URL: vhost.url,
      NOTIFIER_PORT: "0",
      NOTIFIER_HOST: "127.0.0.1",
      ...FAST_SETTINGS,
      ...env,
    });
    notifier = await startNotifier(config, {
      logger: options.captureLogs
        ? createLogger({ service: "notifier-test", level: "info", destination: capture })
        : createLogger({ service: "notifier-test", level: process.env.TEST_LOG_LEVEL ?? "silent" }),
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    });
    return notifier;
  };

  beforeAll(async () => {
    [database, vhost] = await Promise.all([createNotifierTestDatabase(label), createTestVhost(label)]);
    db = createNotifierDb(database.url);
    await start();
    platform = await connectBus({
      url: vhost.url,
      service: "platform-test",
      topology: PLATFORM_TOPOLOGY,
      messages: PLATFORM_MESSAGE_CATALOG,
      rpc: NOTIFIER_RPC_CATALOG,
      logger: createLogger({ service: "platform-test", level: "silent" }),
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    });
  });
  afterAll(async () => {
    await platform?.close().catch(() => undefined);
    await notifier?.stop().catch(() => undefined);
    if (db) await closeNotifierDb(db);
    await vhost?.delete();
    await database?.drop();
  });

  let counter = 0;
  return {
    get db() {
      return db;
    },
    get vhost() {
      return vhost;
    },
    get notifier() {
      if (!notifier) throw new Error("the notifier is not running");
      return notifier;
    },
    get platform() {
      return platform;
    },
    logs,
    start,
    async stop() {
      await notifier?.stop();
      notifier = null;
    },
    caller(mode = "live") {
      counter += 1;
      return { account_id: `acc_ntf${counter}${Math.random().toString(36).slice(2, 8)}`, mode, request_id: randomUUID() };
    },
    async publishAccepted(accountId, options = {}) {
      const messageId = options.messageId ?? randomUUID();
      const filingId = `fil_${randomUUID().replace(/-/g, "")}`;
      const now = new Date().toISOString();
      const filing: Filing = {
        filing_id: filingId,
        filing_type: "ct600",
        company_number: "00000001",
        company_name: "DORMANT TEST LIMITED",
        period: { start: "2025-04-01", end: "2026-03-31" },
        status: "accepted",
        period_split: false,
        tax_status: "accepted",
        client_reference: "ref-1",
        created_at: now,
        updated_at: now,
      };
      await platform.publish(
        "filing.accepted",
        {
          filing_id: filingId,
          account_id: accountId,
          filing_type: "ct600",
          company_number: "00000001",
          client_reference: "ref-1",
          occurred_at: now,
          fee_pence: 2000,
          ...(options.withoutFiling ? {} : { filing }),
        },
        { messageId },
      );
      return { messageId, filingId };
    },
  };
}
