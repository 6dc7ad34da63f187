import { connectBus, type HandlerMap } from "@dormant/bus";
import { BILLING_RPC_CATALOG, PLATFORM_MESSAGE_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, waitFor, type TestVhost } from "@dormant/testing";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeHold } from "../ledger/holds.ts";
import { reconcile } from "../ledger/reconcile.ts";
import { createBillingMetrics } from "../metrics.ts";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { BILLING_EVENT_CATALOG, BILLING_EVENTS_QUEUE } from "./catalog.ts";
import { billingEventHandlers } from "./event-handlers.ts";

const logger = createLogger({ service: "billing-test", level: "silent" });
const reconnect = { initialDelayMs: 50, maxDelayMs: 300 };

// The consumer dies (its connection is cut, as a crash or a broker restart would) while handling
// an acceptance: once after the transaction committed but before the ack, once before anything
// was committed. The broker redelivers either way; the fee is captured exactly once.
describe("billing events across a crash between receiving and acknowledging", () => {
  const ledger = useLedgerDatabase("crash");
  let vhost: TestVhost;
  beforeAll(async () => {
    vhost = await createTestVhost("billing_crash");
  });
  afterAll(async () => {
    await vhost?.delete();
  });

  async function runScenario(filingId: string, crash: (apply: () => Promise<void>) => Promise<void>) {
    const accountId = await ledger.account(5000n, "crash");
    await placeHold(ledger.db, { accountId, filingId, amountPence: 2000n });
    const real = billingEventHandlers({ db: ledger.db, logger, metrics: createBillingMetrics(new Registry()) });
    const deliveries: Array<{ redelivered: boolean }> = [];
    const handlers: HandlerMap<typeof BILLING_EVENT_CATALOG, "billing.events"> = {
      ...real,
      "filing.accepted": async (message, context) => {
        deliveries.push({ redelivered: context.redelivered });
        const apply = () => real["filing.accepted"](message, context);
        if (deliveries.length === 1) await crash(apply);
        else await apply();
      },
    };
    const billingBus = await connectBus({
      url: vhost.url,
      service: "billing",
      topology: PLATFORM_TOPOLOGY,
      messages: BILLING_EVENT_CATALOG,
      rpc: {},
      logger,
      reconnect,
    });
    const filingBus = await connectBus({
      url: vhost.url,
      service: "filing",
      topology: PLATFORM_TOPOLOGY,
      messages: PLATFORM_MESSAGE_CATALOG,
      rpc: BILLING_RPC_CATALOG,
      logger,
      reconnect,
    });
    try {
      await billingBus.consume(BILLING_EVENTS_QUEUE, handlers);
      await filingBus.publish("filing.accepted", {
        filing_id: filingId,
        account_id: accountId,
        filing_type: "accounts",
        company_number: "00000001",
        occurred_at: new Date().toISOString(),
        fee_pence: 2000,
      });
      await waitFor(async () => deliveries.length >= 2 && (await ledger.db.filingOutcomeRecord.count({ where: { filingId } })) === 1, {
        what: "the redelivery handled",
        timeoutMs: 15_000,
      });
      // Nothing else arrives: the redelivery was acknowledged.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(deliveries).toEqual([{ redelivered: false }, { redelivered: true }]);
    } finally {
      await Promise.all([billingBus.close(), filingBus.close()]);
    }
    expect(await ledger.db.ledgerEntry.count({ where: { filingId, kind: "capture" } })).toBe(1);
    expect(await ledger.totals(accountId)).toEqual({ balance: 3000n, held: 0n, available: 3000n });
  }

  it("after the commit, before the ack: the redelivery finds the outcome applied and charges nothing more", async () => {
    await runScenario("fil_crash_after", async (apply) => {
      await apply();
      await vhost.dropConnections();
    });
    expect(await ledger.db.filingOutcomeRecord.findMany({ where: { filingId: "fil_crash_after" } })).toEqual([
      expect.objectContaining({ outcome: "accepted", effect: "captured" }),
    ]);
  });

  it("before the commit: nothing was kept, the redelivery charges once", async () => {
    await runScenario("fil_crash_before", async () => {
      await vhost.dropConnections();
      throw new Error("the process died before its transaction committed");
    });
  });

  it("reconcile passes after both", async () => {
    expect(await reconcile(ledger.db)).toMatchObject({ ok: true, problems: [] });
  });
});
