import { randomUUID } from "node:crypto";
import { startTestSim, type SimServer } from "@dormant/authority-sim/testing";
import { connectBus, type Bus } from "@dormant/bus";
import {
  DEVELOPMENT_SEALING_KEY,
  PLATFORM_MESSAGE_CATALOG,
  SUBMISSION_RPC_CATALOG,
  TAX_SUBMIT_QUEUE,
  sealSecret,
  sealingKeyFromBase64,
  submissionBinding,
  type SubmitTaxPartRequest,
  type SubmitTaxPartResponse,
  type TaxPartOutcome,
  type TaxPartPolling,
  PLATFORM_TOPOLOGY,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, createTestVhost, waitFor, type TestRedis, type TestVhost } from "@dormant/testing";
import { connect } from "amqplib";
import { loadTaxSubmitterConfig, type TaxSubmitterConfig } from "../env.ts";
import { startTaxSubmitter, type TaxSubmitter } from "../worker.ts";

type FilingSideBus = Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof SUBMISSION_RPC_CATALOG>;

/** What the tax authority simulator's received log lists. */
export interface ReceivedEntry {
  kind: string;
  company?: string;
  correlationId?: string;
  answer: string;
}

/** Everything reported on `filing.outcomes`, as the filing service receives it. */
export interface Reported {
  outcomes: TaxPartOutcome[];
  polling: TaxPartPolling[];
}

/**
 * One test file's world: its own vhost, Redis prefix and simulator (fast timing), workers
 * started against them, and a "filing service" side that calls the submit RPC and collects
 * what arrives on `filing.outcomes`.
 */
export interface TaxHarness {
  sim: SimServer;
  vhost: TestVhost;
  redis: TestRedis;
  reported: Reported;
  filingBus: FilingSideBus;
  /** Starts a worker with the test settings plus `env` overrides (closed by teardown). */
  startWorker(env?: Record<string, string>): Promise<TaxSubmitter>;
  config(env?: Record<string, string>): TaxSubmitterConfig;
  /** Calls `tax.submit_part` for a part (credentials sealed as the filing service seals them). */
  submit(part: PartInput): Promise<SubmitTaxPartResponse>;
  request(part: PartInput): SubmitTaxPartRequest;
  /** Waits for the final outcome of a part. */
  outcome(filingId: string, partNumber?: number, timeoutMs?: number): Promise<TaxPartOutcome>;
  received(query: { company?: string; kind?: string }): Promise<ReceivedEntry[]>;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Messages waiting in a queue of the vhost. */
  queueDepth(queue: string): Promise<number>;
  teardown(): Promise<void>;
}

export interface PartInput {
  filingId?: string;
  companyNumber: string;
  partNumber?: number;
  partsTotal?: number;
  period?: { start: string; end: string };
  senderId?: string;
  password?: string;
}

export function newFilingId(): string {
  return `fil_${randomUUID().replaceAll("-", "")}`;
}

const devKey = sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64);

export async function taxHarness(label: string): Promise<TaxHarness> {
  const vhost = await createTestVhost(label);
  const redis = createTestRedisPrefix(label);
  const sim = await startTestSim();
  const logger = createLogger({ service: "tax-submitter-test" });
  const workers: TaxSubmitter[] = [];
  const reported: Reported = { outcomes: [], polling: [] };

  const filingBus: FilingSideBus = await connectBus({
    url: vhost.url,
    service: "filing-test",
    topology: PLATFORM_TOPOLOGY,
    messages: PLATFORM_MESSAGE_CATALOG,
    rpc: SUBMISSION_RPC_CATALOG,
    logger,
    reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
  });
  await filingBus.consume("filing.outcomes", {
    "tax.part_outcome": async (message) => void reported.outcomes.push(message.payload),
    "tax.part_polling": async (message) => void reported.polling.push(message.payload),
    "registry.outcome": async () => undefined,
    "registry.status": async () => undefined,
  });

  const config = (env: Record<string, string> = {}) =>
    loadTaxSubmitterConfig({
      NODE_ENV: "test",
      AMQP_URL: vhost.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
      OPS_PORT: "0",
      OPS_HOST: "127.0.0.1",
      TAX_BASE_URL: sim.urls.tax,
      TAX_VENDOR_ID: "1234",
      AUTHORITY_TIMEOUT_MS: "15000",
      BREAKER_VOLUME_THRESHOLD: "1000",
      BREAKER_RESET_TIMEOUT_MS: "2000",
      POLL_GIVE_UP_AFTER_SECONDS: "4",
      IN_DOUBT_SETTLE_SECONDS: "1",
      ...env,
    });

  const request = (part: PartInput): SubmitTaxPartRequest => {
    const filingId = part.filingId ?? newFilingId();
    const partNumber = part.partNumber ?? 1;
    return {
      filing_id: filingId,
      part_number: partNumber,
      parts_total: part.partsTotal ?? 1,
      company: { number: part.companyNumber, name: "Lovelace Engines Limited", utr: "8596148860" },
      period: part.period ?? { start: "2025-04-01", end: "2026-03-31" },
      declarant: { name: "Augusta Ada Lovelace", status: "Director" },
      credentials: sealSecret(
        { government_gateway_id: part.senderId ?? "GGUSER01", government_gateway_password: part.password ?? "correct horse battery" },
        devKey,
        submissionBinding(filingId, partNumber),
      ),
    };
  };

  return {
    sim,
    vhost,
    redis,
    reported,
    filingBus,
    config,
    request,
    async startWorker(env = {}) {
      const worker = await startTaxSubmitter(config(env), logger);
      workers.push(worker);
      return worker;
    },
    submit: (part) => filingBus.rpcCall(TAX_SUBMIT_QUEUE, "tax.submit_part", request(part)),
    outcome: (filingId, partNumber = 1, timeoutMs = 8_000) =>
      waitFor(() => reported.outcomes.find((o) => o.filing_id === filingId && o.part_number === partNumber), {
        timeoutMs,
        intervalMs: 25,
        what: `the outcome of ${filingId} part ${partNumber}`,
      }),
    async received(query) {
      const params = new URLSearchParams({ target: "tax", ...query });
      const response = await fetch(`${sim.urls.control}/received?${params.toString()}`);
      return ((await response.json()) as { items: ReceivedEntry[] }).items;
    },
    async control(method, path, body) {
      const response = await fetch(`${sim.urls.control}${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      return response.json();
    },
    async queueDepth(queue) {
      const model = await connect(vhost.url);
      try {
        const channel = await model.createChannel();
        return (await channel.checkQueue(queue)).messageCount;
      } finally {
        await model.close();
      }
    },
    async teardown() {
      await Promise.all(workers.splice(0).map((worker) => worker.close().catch(() => undefined)));
      await filingBus.close().catch(() => undefined);
      await sim.close();
      await redis.cleanup();
      await vhost.delete();
    },
  };
}
