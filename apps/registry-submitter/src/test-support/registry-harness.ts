import { randomUUID } from "node:crypto";
import { submitterTestWorld, waitForFinalOutcome, type SubmitterTestWorld } from "@dormant/authority-client/testing";
import { startTestSim, type SimServer } from "@dormant/authority-sim/testing";
import {
  DEVELOPMENT_SEALING_KEY,
  REGISTRY_SUBMIT_QUEUE,
  sealSecret,
  sealingKeyFromBase64,
  submissionBinding,
  type RegistryOutcome,
  type RegistryStatusReport,
  type SubmitRegistryAccountsRequest,
  type SubmitRegistryAccountsResponse,
} from "@dormant/contracts";
import { renderDormantAccountsIxbrl } from "@dormant/documents";
import { formatSubmissionNumber } from "@dormant/govtalk";
import { connect } from "amqplib";
import { loadRegistrySubmitterConfig } from "../env.ts";
import { startRegistrySubmitter, type RegistrySubmitter } from "../worker.ts";

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
 * One test file's world (submitterTestWorld: its own vhost, Redis prefix and simulator, the
 * filing side of the bus) with registry submitters started in it, and the outcomes and status
 * reports the filing side collects.
 */
export interface RegistryHarness extends Omit<SubmitterTestWorld<SimServer, ReceivedEntry>, "startWorker" | "env"> {
  outcomes: RegistryOutcome[];
  /** The `registry.status` reports (undecided statuses) received, in order. */
  statuses: RegistryStatusReport[];
  startWorker(env?: Record<string, string>): Promise<RegistrySubmitter>;
  request(input: AccountsInput): SubmitRegistryAccountsRequest;
  submit(input: AccountsInput): Promise<SubmitRegistryAccountsResponse>;
  outcome(filingId: string, timeoutMs?: number): Promise<RegistryOutcome>;
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
  const outcomes: RegistryOutcome[] = [];
  const statuses: RegistryStatusReport[] = [];
  const world = await submitterTestWorld<SimServer, ReceivedEntry>({
    label,
    service: "registry-submitter-test",
    startSim: startTestSim,
    target: "registry",
    connect,
    outcomes: {
      "registry.outcome": async (message) => void outcomes.push(message.payload),
      "registry.status": async (message) => void statuses.push(message.payload),
      "tax.part_outcome": async () => undefined,
      "tax.part_polling": async () => undefined,
    },
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
    ...world,
    outcomes,
    statuses,
    request,
    startWorker: (env = {}) =>
      world.startWorker(() =>
        startRegistrySubmitter(
          loadRegistrySubmitterConfig(world.env({ REGISTRY_GATEWAY_URL: world.sim.urls.registry, ...env })),
          world.logger,
        ),
      ),
    submit: (input) => world.filingBus.rpcCall(REGISTRY_SUBMIT_QUEUE, "registry.submit_accounts", request(input)),
    outcome: (filingId, timeoutMs = 8_000) =>
      waitForFinalOutcome(outcomes, (o) => o.filing_id === filingId, { timeoutMs, what: `the outcome of ${filingId}` }),
  };
}
