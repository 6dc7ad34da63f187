import { randomUUID } from "node:crypto";
import { connectBus, type Bus } from "@dormant/bus";
import { BILLING_RPC_CATALOG, PLATFORM_MESSAGE_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, type TestDatabase, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll } from "vitest";
import { closeBillingDb, createBillingDb, type BillingDb } from "../db/client.ts";
import { createBillingTestDatabase } from "./test-database.ts";
import { loadBillingConfig } from "../env.ts";
import { openAccount } from "../ledger/accounts.ts";
import { startBilling, type BillingService } from "../service.ts";

/** What the filing service has: publish filing events, call billing's RPCs. */
export type FilingSideBus = Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof BILLING_RPC_CATALOG>;

export interface ServiceFixture {
  readonly db: BillingDb;
  readonly vhost: TestVhost;
  readonly databaseUrl: string;
  readonly billing: BillingService;
  /** The filing side of the conversation, on the same vhost. */
  readonly filing: FilingSideBus;
  /** Starts billing (again, after a test stopped it). */
  start(): Promise<BillingService>;
  /** Starts one more billing process on the same database and vhost (a second consumer of billing.events); the caller stops it. */
  startAnother(): Promise<BillingService>;
  account(openingBalancePence: bigint): Promise<string>;
  /** Publishes a filing event as the filing service's outbox relay would (message id kept on republish). */
  publishOutcome(
    kind: "accepted" | "rejected" | "errored",
    event: { filingId: string; accountId: string; occurredAt?: string; corrects?: "error" },
    messageId?: string,
  ): Promise<string>;
}

export const TEST_WEBHOOK_SECRET = "whsec_service_test_0123456789abcdef0123";

/**
 * Test support: the real billing service in-process on a database and a RabbitMQ vhost of the test
 * file's own, plus a bus client playing the filing service. Everything is closed at the end.
 * `env`: more of billing's settings, read when billing starts (after earlier beforeAll hooks).
 */
export function useBillingService(label: string, options: { env?: () => Record<string, string> } = {}): ServiceFixture {
  let database: TestDatabase;
  let vhost: TestVhost;
  let db: BillingDb;
  let billing: BillingService | null = null;
  let filing: FilingSideBus;

  const launch = () => {
    const config = loadBillingConfig({
      NODE_ENV: "test",
      BILLING_DATABASE_URL: database.url,
      AMQP_URL: vhost.url,
      BILLING_PORT: "0",
      BILLING_HOST: "127.0.0.1",
      PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      ...options.env?.(),
    });
    return startBilling(config, {
      logger: createLogger({ service: "billing-test", level: "silent" }),
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    });
  };
  const start = async () => {
    billing = await launch();
    return billing;
  };

  beforeAll(async () => {
    [database, vhost] = await Promise.all([createBillingTestDatabase(label), createTestVhost(label)]);
    db = createBillingDb(database.url);
    await start();
    filing = await connectBus({
      url: vhost.url,
      service: "filing-test",
      topology: PLATFORM_TOPOLOGY,
      messages: PLATFORM_MESSAGE_CATALOG,
      rpc: BILLING_RPC_CATALOG,
      logger: createLogger({ service: "filing-test", level: "silent" }),
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    });
  });
  afterAll(async () => {
    await filing?.close().catch(() => undefined);
    await billing?.stop().catch(() => undefined);
    if (db) await closeBillingDb(db);
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
    get databaseUrl() {
      return database.url;
    },
    get billing() {
      if (!billing) throw new Error("billing is not running");
      return billing;
    },
    get filing() {
      return filing;
    },
    start,
    startAnother: launch,
    async account(openingBalancePence) {
      counter += 1;
      const accountId = `acc_svc${counter}${Math.random().toString(36).slice(2, 8)}`;
      await openAccount(db, { accountId, openingBalancePence });
      return accountId;
    },
    async publishOutcome(kind, { filingId, accountId, occurredAt, corrects }, messageId = randomUUID()) {
      const common = {
        filing_id: filingId,
        account_id: accountId,
        filing_type: "ct600",
        company_number: "00000001",
        occurred_at: occurredAt ?? new Date().toISOString(),
      } as const;
      const error = { code: kind === "rejected" ? "TAX_REJECTED" : "GATEWAY_TIMEOUT", message: "test outcome" } as const;
      if (kind === "accepted")
        await filing.publish("filing.accepted", { ...common, fee_pence: 2000, ...(corrects ? { corrects } : {}) }, { messageId });
      else if (kind === "rejected") await filing.publish("filing.rejected", { ...common, error }, { messageId });
      else await filing.publish("filing.errored", { ...common, error }, { messageId });
      return messageId;
    },
  };
}
