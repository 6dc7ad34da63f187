import { randomUUID } from "node:crypto";
import { startTestSim, type SimServer } from "@dormant/authority-sim/testing";
import { connectBus, type Bus } from "@dormant/bus";
import {
  DEVELOPMENT_SEALING_KEY,
  PLATFORM_MESSAGE_CATALOG,
  REGISTRY_SUBMIT_QUEUE,
  SUBMISSION_RPC_CATALOG,
  sealSecret,
  sealingKeyFromBase64,
  submissionBinding,
  type RegistryOutcome,
  type RegistryStatusReport,
  type SubmitRegistryAccountsRequest,
  type SubmitRegistryAccountsResponse,
  PLATFORM_TOPOLOGY,
} from "@dormant/contracts";
import { renderDormantAccountsIxbrl } from "@dormant/documents";
import { formatSubmissionNumber } from "@dormant/govtalk";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, createTestVhost, waitFor, type TestRedis, type TestVhost } from "@dormant/testing";
import { connect } from "amqplib";
import { loadRegistrySubmitterConfig } from "../env.ts";
import { startRegistrySubmitter, type RegistrySubmitter } from "../worker.ts";

type FilingSideBus = Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof SUBMISSION_RPC_CATALOG>;

/** What the registry simulator's received log lists. */
export interface ReceivedEntry {
  /** When the simulator received it (ISO 8601). */
  at: string;
  kind: string;
  company?: string;
  submissionNumber?: string;
  answer: string;
}

export interface AccountsInput {
  filingId?: string;
  companyNumber: string;
  submissionNumber?: string;
  authCode?: string;
}

/**
 * One test file's world: its own vhost, Redis prefix and simulator (fast timing), workers
 * started against them, and a "filing service" side that calls the submit RPC and collects the
 * outcomes arriving on `filing.outcomes`.
 */
export interface RegistryHarness {
  sim: SimServer;
  vhost: TestVhost;
  outcomes: RegistryOutcome[];
  /** The `registry.status` reports (undecided statuses) received, in order. */
  statuses: RegistryStatusReport[];
  filingBus: FilingSideBus;
  startWorker(env?: Record<string, string>): Promise<RegistrySubmitter>;
  request(input: AccountsInput): SubmitRegistryAccountsRequest;
  submit(input: AccountsInput): Promise<SubmitRegistryAccountsResponse>;
  outcome(filingId: string, timeoutMs?: number): Promise<RegistryOutcome>;
  received(query: { company?: string; kind?: string }): Promise<ReceivedEntry[]>;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  queueDepth(queue: string): Promise<number>;
  teardown(): Promise<void>;
}

export function newFilingId(): string {
  return `fil_${randomUUID().replaceAll("-", "")}`;
}

let nextSubmission = Math.floor(Math.random() * 1_000_000);

/** A submission number unused in this process (each test file has a simulator of its own). */
export function newSubmissionNumber(): string {
  return formatSubmissionNumber(nextSubmission++);
}

const devKey = sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64);

function registryType(companyNumber: string): "EW" | "SC" | "NI" {
  if (companyNumber.startsWith("SC")) return "SC";
  if (companyNumber.startsWith("NI")) return "NI";
  return "EW";
}

function accountsIxbrl(companyNumber: string): string {
  const jurisdiction = companyNumber.startsWith("SC") ? "scotland" : companyNumber.startsWith("NI") ? "northern-ireland" : "england-wales";
  return renderDormantAccountsIxbrl({
    companyName: "Lovelace Engines Limited",
    companyNumber,
    registryCompanyType: "ltd",
    jurisdiction,
    periodStart: "2025-04-01",
    periodEnd: "2026-03-31",
    approvalDate: "2026-05-01",
    directorName: "Augusta Ada Lovelace",
    current: { cash: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 0 },
  });
}

export async function registryHarness(label: string): Promise<RegistryHarness> {
  const vhost = await createTestVhost(label);
  const redis: TestRedis = createTestRedisPrefix(label);
  const sim = await startTestSim();
  const logger = createLogger({ service: "registry-submitter-test" });
  const workers: RegistrySubmitter[] = [];
  const outcomes: RegistryOutcome[] = [];
  const statuses: RegistryStatusReport[] = [];

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
    "registry.outcome": async (message) => void outcomes.push(message.payload),
    "registry.status": async (message) => void statuses.push(message.payload),
    "tax.part_outcome": async () => undefined,
    "tax.part_polling": async () => undefined,
  });

  const request = (input: AccountsInput): SubmitRegistryAccountsRequest => {
    const filingId = input.filingId ?? newFilingId();
    return {
      filing_id: filingId,
      company: { number: input.companyNumber, name: "LOVELACE ENGINES LIMITED", registry_company_type: registryType(input.companyNumber) },
      submission_number: input.submissionNumber ?? newSubmissionNumber(),
      date_signed: "2026-05-01",
      ixbrl_base64: Buffer.from(accountsIxbrl(input.companyNumber), "utf8").toString("base64"),
      document_filename: "accounts.html",
      credentials: sealSecret({ company_auth_code: input.authCode ?? "A1B2C3" }, devKey, submissionBinding(filingId, 1)),
    };
  };

  return {
    sim,
    vhost,
    outcomes,
    statuses,
    filingBus,
    request,
    async startWorker(env = {}) {
      const config = loadRegistrySubmitterConfig({
        NODE_ENV: "test",
        AMQP_URL: vhost.url,
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: redis.prefix,
        OPS_PORT: "0",
        OPS_HOST: "127.0.0.1",
        REGISTRY_GATEWAY_URL: sim.urls.registry,
        AUTHORITY_TIMEOUT_MS: "15000",
        BREAKER_VOLUME_THRESHOLD: "1000",
        BREAKER_RESET_TIMEOUT_MS: "2000",
        POLL_GIVE_UP_AFTER_SECONDS: "4",
        IN_DOUBT_SETTLE_SECONDS: "1",
        ...env,
      });
      const worker = await startRegistrySubmitter(config, logger);
      workers.push(worker);
      return worker;
    },
    submit: (input) => filingBus.rpcCall(REGISTRY_SUBMIT_QUEUE, "registry.submit_accounts", request(input)),
    outcome: (filingId, timeoutMs = 8_000) =>
      waitFor(() => outcomes.find((o) => o.filing_id === filingId), { timeoutMs, intervalMs: 25, what: `the outcome of ${filingId}` }),
    async received(query) {
      const params = new URLSearchParams({ target: "registry", ...query });
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
