import { randomUUID } from "node:crypto";
import { startTestSim, type SimServer } from "@dormant/authority-sim/testing";
import { BILLING_MIGRATIONS_DIR, startBilling, loadBillingConfig, type BillingService } from "@dormant/billing";
import { openAccount, withBillingDb } from "@dormant/billing/admin";
import { connectBus, type Bus } from "@dormant/bus";
import {
  BILLING_RPC_CATALOG,
  BILLING_RPC_QUEUE,
  credentialsBinding,
  FILING_ACCOUNT_RPC_CATALOG,
  FILING_RECONCILE_RPC_CATALOG,
  FILING_RPC_CATALOG,
  FILING_RPC_QUEUE,
  PLATFORM_MESSAGE_CATALOG,
  sealSecret,
  SUBMISSION_RPC_CATALOG,
  type AccountsFilingInput,
  type Ct600FilingInput,
  type FilingRpcCaller,
  type SealingKey,
  PLATFORM_TOPOLOGY,
} from "@dormant/contracts";
import { createLogger, migrationsFingerprint, type Logger } from "@dormant/service-kit";
import { loadRegistrySubmitterConfig, startRegistrySubmitter, type RegistrySubmitter } from "@dormant/registry-submitter/testing";
import { loadTaxSubmitterConfig, startTaxSubmitter, type TaxSubmitter } from "@dormant/tax-submitter/testing";
import {
  createTestDatabase,
  createTestRedisPrefix,
  createTestVhost,
  waitFor,
  type TestDatabase,
  type TestRedis,
  type TestVhost,
} from "@dormant/testing";
import { connect, type ChannelModel } from "amqplib";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { loadFilingConfig, type FilingConfig } from "../env.ts";
import { startFilingService, type FilingService } from "../service.ts";

/**
 * The other side of every conversation: the gateway (filing RPCs), the account dashboard
 * (account-wide reads), billing's reconcile, a submitter (outcomes, submit RPCs), billing.
 */
export type PeerBus = Bus<
  typeof PLATFORM_MESSAGE_CATALOG,
  typeof FILING_RPC_CATALOG &
    typeof FILING_ACCOUNT_RPC_CATALOG &
    typeof FILING_RECONCILE_RPC_CATALOG &
    typeof BILLING_RPC_CATALOG &
    typeof SUBMISSION_RPC_CATALOG
>;

/** A filing event as it arrived on a queue bound to filing.events. */
export interface ReceivedEvent {
  type: string;
  messageId: string;
  requestId: string;
  payload: Record<string, unknown> & { filing_id: string };
}

export interface HarnessOptions {
  /** Run the real billing service in-process (else nothing serves billing.rpc). */
  billing?: boolean;
  /** Run the real tax submitter in-process (else nothing serves tax.submit). */
  taxSubmitter?: boolean;
  /** Run the real registry submitter in-process (else nothing serves registry.submit). */
  registrySubmitter?: boolean;
  /** Extra filing service settings. */
  env?: Record<string, string>;
  /** The filing service's logger (silent by default). */
  logger?: Logger;
}

export interface FilingHarness {
  readonly config: FilingConfig;
  readonly service: FilingService;
  readonly sim: SimServer;
  readonly vhost: TestVhost;
  readonly redis: TestRedis;
  readonly database: TestDatabase;
  /** Billing's database (billing harnesses only). */
  readonly billingDatabase: TestDatabase | undefined;
  readonly peer: PeerBus;
  /** Every filing event published so far (a queue of the test's own bound to filing.events). */
  readonly events: ReceivedEvent[];
  caller(overrides?: Partial<FilingRpcCaller>): FilingRpcCaller;
  submitCt600(
    caller: FilingRpcCaller,
    filing: Ct600FilingInput,
    options?: { idempotencyKey?: string; password?: string },
  ): Promise<unknown>;
  submitAccounts(
    caller: FilingRpcCaller,
    filing: AccountsFilingInput,
    options?: { idempotencyKey?: string; authCode?: string },
  ): Promise<unknown>;
  /**
   * Unbinds `queue` from filing.events for `routingKey`: events of that type published from now on
   * never reach it (as if lost on their way), while they still reach the other queues.
   */
  unbindFromFilingEvents(queue: string, routingKey: string): Promise<void>;
  /** Stops the billing service (billing harnesses only): nothing serves billing.rpc any more. */
  stopBilling(): Promise<void>;
  /** Opens a billing account with a balance (billing harnesses only), under a new id or the one given. */
  openAccount(openingBalancePence: number, accountId?: string): Promise<string>;
  availablePence(accountId: string): Promise<number>;
  eventsFor(filingId: string): ReceivedEvent[];
  waitForEvent(filingId: string, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Stops the filing service and starts it again on the same database, vhost and Redis prefix. */
  restartService(): Promise<FilingService>;
  teardown(): Promise<void>;
}

const silent = createLogger({ service: "filing-test", level: "silent" });

/**
 * One test file's world: its own filing database (migrated template clone), Redis prefix,
 * RabbitMQ vhost and authority simulator (fast timing), the filing service started in-process on
 * them, optionally the real billing service and tax submitter, and a peer bus playing the
 * gateway and the submitters. Everything is closed by teardown().
 */
export async function startFilingHarness(label: string, options: HarnessOptions = {}): Promise<FilingHarness> {
  const [database, vhost, sim] = await Promise.all([createFilingTestDatabase(label), createTestVhost(`filing-${label}`), startTestSim()]);
  const redis = createTestRedisPrefix(`filing-${label}`);
  const closers: Array<() => Promise<unknown>> = [() => sim.close(), () => redis.cleanup(), () => vhost.delete(), () => database.drop()];
  const teardown = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    const config = loadFilingConfig({
      NODE_ENV: "test",
      FILING_DATABASE_URL: database.url,
      FILING_DATABASE_POOL_MAX: "5",
      AMQP_URL: vhost.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
      REGISTRY_DATA_URL: sim.urls.registryData,
      OPS_PORT: "0",
      OPS_HOST: "127.0.0.1",
      OUTBOX_RELAY_INTERVAL_MS: "100",
      SWEEPER_INTERVAL_MS: "3600000",
      ...options.env,
    });
    const sealingKey: SealingKey = config.sealingKeys[0]!;
    const serviceLogger = options.logger ?? silent;
    let service = await startFilingService(config, { logger: serviceLogger });
    closers.push(() => service.stop());

    const peer: PeerBus = await connectBus({
      url: vhost.url,
      service: "peer-test",
      topology: PLATFORM_TOPOLOGY,
      messages: PLATFORM_MESSAGE_CATALOG,
      rpc: {
        ...FILING_RPC_CATALOG,
        ...FILING_ACCOUNT_RPC_CATALOG,
        ...FILING_RECONCILE_RPC_CATALOG,
        ...BILLING_RPC_CATALOG,
        ...SUBMISSION_RPC_CATALOG,
      },
      logger: silent,
    });
    closers.push(() => peer.close());

    const events: ReceivedEvent[] = [];
    const amqp: ChannelModel = await connect(vhost.url);
    closers.push(() => amqp.close());
    const channel = await amqp.createChannel();
    const { queue } = await channel.assertQueue("", { exclusive: true });
    await channel.bindQueue(queue, "filing.events", "#");
    await channel.consume(
      queue,
      (message) => {
        if (!message) return;
        const headers = message.properties.headers as Record<string, string>;
        events.push({
          type: headers.type!,
          messageId: String(message.properties.messageId),
          requestId: headers.request_id!,
          payload: JSON.parse(message.content.toString("utf8")),
        });
      },
      { noAck: true },
    );

    let billingDatabase: TestDatabase | undefined;
    let billingService: BillingService | undefined;
    if (options.billing) {
      const billingDb = await createTestDatabase({
        label: `filing_billing_${label}`,
        prepare: (url) => withBillingDb(url, async () => undefined),
        templateKey: `billing:${migrationsFingerprint(BILLING_MIGRATIONS_DIR)}`,
      });
      billingDatabase = billingDb;
      closers.push(() => billingDb.drop());
      const billing: BillingService = await startBilling(
        loadBillingConfig({
          NODE_ENV: "test",
          BILLING_DATABASE_URL: billingDb.url,
          AMQP_URL: vhost.url,
          BILLING_PORT: "0",
          BILLING_HOST: "127.0.0.1",
        }),
        { logger: silent },
      );
      billingService = billing;
      closers.push(() => billing.stop());
    }
    if (options.taxSubmitter) {
      const worker: TaxSubmitter = await startTaxSubmitter(
        loadTaxSubmitterConfig({
          NODE_ENV: "test",
          AMQP_URL: vhost.url,
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: redis.prefix,
          OPS_PORT: "0",
          OPS_HOST: "127.0.0.1",
          TAX_BASE_URL: sim.urls.tax,
          TAX_VENDOR_ID: "1234",
          POLL_GIVE_UP_AFTER_SECONDS: "10",
        }),
        silent,
      );
      closers.push(() => worker.close());
    }
    if (options.registrySubmitter) {
      const worker: RegistrySubmitter = await startRegistrySubmitter(
        loadRegistrySubmitterConfig({
          NODE_ENV: "test",
          AMQP_URL: vhost.url,
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: redis.prefix,
          OPS_PORT: "0",
          OPS_HOST: "127.0.0.1",
          REGISTRY_GATEWAY_URL: sim.urls.registry,
          REGISTRY_POLL_INTERVAL_SECONDS: "1",
          POLL_GIVE_UP_AFTER_SECONDS: "4",
        }),
        silent,
      );
      closers.push(() => worker.close());
    }

    const eventsFor = (filingId: string) => events.filter((e) => e.payload.filing_id === filingId);
    return {
      config,
      get service() {
        return service;
      },
      sim,
      vhost,
      redis,
      database,
      billingDatabase,
      peer,
      events,
      caller: (overrides = {}) => ({ account_id: "acc_test", key_id: "key_test", mode: "live", request_id: randomUUID(), ...overrides }),
      submitCt600(caller, filing, { idempotencyKey = randomUUID(), password = "correct horse battery" } = {}) {
        const credentials = sealSecret(
          { government_gateway_id: "GGUSER01", government_gateway_password: password },
          sealingKey,
          credentialsBinding(caller.account_id, idempotencyKey),
        );
        return peer.rpcCall(FILING_RPC_QUEUE, "filing.submit_ct600", { caller, idempotency_key: idempotencyKey, filing, credentials });
      },
      submitAccounts(caller, filing, { idempotencyKey = randomUUID(), authCode = "A1B2C3" } = {}) {
        const credentials = sealSecret({ company_auth_code: authCode }, sealingKey, credentialsBinding(caller.account_id, idempotencyKey));
        return peer.rpcCall(FILING_RPC_QUEUE, "filing.submit_accounts", { caller, idempotency_key: idempotencyKey, filing, credentials });
      },
      async unbindFromFilingEvents(queue, routingKey) {
        await channel.unbindQueue(queue, "filing.events", routingKey);
      },
      async stopBilling() {
        if (!billingService) throw new Error("this harness runs without billing");
        await billingService.stop();
      },
      async openAccount(openingBalancePence, accountId = `acc_${randomUUID().replaceAll("-", "")}`) {
        if (!billingDatabase) throw new Error("this harness runs without billing");
        await withBillingDb(billingDatabase.url, (db) => openAccount(db, { accountId, openingBalancePence }));
        return accountId;
      },
      async availablePence(accountId) {
        return (await peer.rpcCall(BILLING_RPC_QUEUE, "billing.get_balance", { account_id: accountId })).available_pence;
      },
      eventsFor,
      waitForEvent: (filingId, timeoutMs = 10_000) =>
        waitFor(() => eventsFor(filingId)[0], { timeoutMs, intervalMs: 25, what: `the event of ${filingId}` }),
      async restartService() {
        await service.stop();
        service = await startFilingService(config, { logger: serviceLogger });
        return service;
      },
      teardown,
    };
  } catch (error) {
    await teardown();
    throw error;
  }
}
