import { randomUUID } from "node:crypto";
import { submitterTestWorld, waitForFinalOutcome, type SubmitterTestWorld } from "@dormant/authority-client/testing";
import { startTestSim, type SimServer } from "@dormant/authority-sim/testing";
import {
  DEVELOPMENT_SEALING_KEY,
  TAX_SUBMIT_QUEUE,
  sealSecret,
  sealingKeyFromBase64,
  submissionBinding,
  type SubmitTaxPartRequest,
  type SubmitTaxPartResponse,
  type TaxPartOutcome,
  type TaxPartPolling,
} from "@dormant/contracts";
import { connect } from "amqplib";
import { loadTaxSubmitterConfig, type TaxSubmitterConfig } from "../env.ts";
import { startTaxSubmitter, type TaxSubmitter } from "../worker.ts";

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
 * One test file's world (submitterTestWorld: its own vhost, Redis prefix and simulator, the
 * filing side of the bus) with tax submitters started in it, and what the filing side collects.
 */
export interface TaxHarness extends Omit<SubmitterTestWorld<SimServer, ReceivedEntry>, "startWorker" | "env"> {
  reported: Reported;
  /** Starts a worker with the test settings plus `env` overrides (closed by teardown). */
  startWorker(env?: Record<string, string>): Promise<TaxSubmitter>;
  config(env?: Record<string, string>): TaxSubmitterConfig;
  /** Calls `tax.submit_part` for a part (credentials sealed as the filing service seals them). */
  submit(part: PartInput): Promise<SubmitTaxPartResponse>;
  request(part: PartInput): SubmitTaxPartRequest;
  /** Waits for the final outcome of a part. */
  outcome(filingId: string, partNumber?: number, timeoutMs?: number): Promise<TaxPartOutcome>;
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
  const reported: Reported = { outcomes: [], polling: [] };
  const world = await submitterTestWorld<SimServer, ReceivedEntry>({
    label,
    service: "tax-submitter-test",
    startSim: startTestSim,
    target: "tax",
    connect,
    outcomes: {
      "tax.part_outcome": async (message) => void reported.outcomes.push(message.payload),
      "tax.part_polling": async (message) => void reported.polling.push(message.payload),
      "registry.outcome": async () => undefined,
      "registry.status": async () => undefined,
    },
  });

  const config = (env: Record<string, string> = {}) =>
    loadTaxSubmitterConfig(world.env({ TAX_BASE_URL: world.sim.urls.tax, TAX_VENDOR_ID: "1234", ...env }));

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
    ...world,
    reported,
    config,
    request,
    startWorker: (env = {}) => world.startWorker(() => startTaxSubmitter(config(env), world.logger)),
    submit: (part) => world.filingBus.rpcCall(TAX_SUBMIT_QUEUE, "tax.submit_part", request(part)),
    outcome: (filingId, partNumber = 1, timeoutMs = 8_000) =>
      waitForFinalOutcome(reported.outcomes, (o) => o.filing_id === filingId && o.part_number === partNumber, {
        timeoutMs,
        what: `the outcome of ${filingId} part ${partNumber}`,
      }),
  };
}
