import { randomUUID } from "node:crypto";
import { createRegistryDataClient } from "@dormant/company-data";
import { BILLING_RPC_QUEUE, FILING_FEE_PENCE, type Ct600FilingInput, type FilingRpcCaller } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { submitFingerprint } from "../fingerprint.ts";
import { createRegistryDataSource } from "../registry-data/registry-data-source.ts";
import { planCt600Filing } from "../submit/ct600-plan.ts";
import type { NewFiling } from "../submit/new-filing.ts";
import { insertPendingFiling } from "../submit/pending-filing.ts";
import type { FilingHarness } from "../testing/filing-harness.ts";

/**
 * Test support: what a filing service that died right after writing a pending CT600 filing and
 * holding its fee left behind (written with the service's own functions), under `idempotencyKey`,
 * its claim already lapsed. A submit with the same key resumes that filing. Needs a harness with
 * billing.
 */
export async function crashedAfterHold(
  h: FilingHarness,
  caller: FilingRpcCaller,
  filing: Ct600FilingInput,
  idempotencyKey: string,
): Promise<NewFiling> {
  const registry = createRegistryDataSource({
    client: createRegistryDataClient({ baseUrl: h.sim.urls.registryData, apiKey: h.config.REGISTRY_DATA_API_KEY, timeoutMs: 2000 }),
    redis: h.service.redis,
    keyPrefix: h.config.REDIS_KEY_PREFIX,
    ttlSeconds: 60,
    notFoundTtlSeconds: 60,
    logger: createLogger({ service: "filing-test", level: "silent" }),
  });
  const plan = await planCt600Filing(registry, filing);
  await insertPendingFiling(h.service.db, plan, {
    accountId: caller.account_id,
    keyId: caller.key_id,
    idempotencyKey,
    fingerprint: submitFingerprint("ct600", filing),
    requestId: caller.request_id,
    feePence: FILING_FEE_PENCE,
    claimToken: randomUUID(),
    claimSeconds: 0,
  });
  await h.peer.rpcCall(BILLING_RPC_QUEUE, "billing.hold", {
    account_id: caller.account_id,
    filing_id: plan.id,
    amount_pence: FILING_FEE_PENCE,
  });
  return plan;
}
