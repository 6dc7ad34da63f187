import { loadXmlOutliner, type XmlOutliner } from "@dormant/govtalk";
import type { Logger } from "@dormant/service-kit";
import type { SimConfig } from "./config.ts";
import { Faults } from "./faults/faults.ts";
import { HangingRequests } from "./faults/hanging-requests.ts";
import { SandboxDecisionTable } from "./sandbox/decision-table.ts";
import { CompanyDirectory } from "./registry-data/company-directory.ts";
import { RateLimiter } from "./registry-data/rate-limit.ts";
import type { RegistrySubmission } from "./registry-gateway/registry-submission.ts";
import { BoundedMap } from "./state/bounded-map.ts";
import { ReceivedLog } from "./state/received-log.ts";
import { CtSchemaCheck } from "./tax/ct-schema-check.ts";
import type { TaxSubmission } from "./tax/tax-submission.ts";
import { Timing } from "./timing.ts";

/** Everything the simulator holds in memory, shared by its routers. */
export interface SimContext {
  config: SimConfig;
  timing: Timing;
  decisionTable: SandboxDecisionTable;
  faults: Faults;
  hanging: HangingRequests;
  received: ReceivedLog;
  /** Tax submissions by CorrelationID. */
  taxSubmissions: BoundedMap<string, TaxSubmission>;
  /** Registry submissions by SubmissionNumber (the simulator has one presenter). */
  registrySubmissions: BoundedMap<string, RegistrySubmission>;
  directory: CompanyDirectory;
  ctSchema: CtSchemaCheck;
  /** libxml2 for reading attached accounts, loading from the start (the first accounts wait for it). */
  xmlOutliner: Promise<XmlOutliner>;
  rateLimiter: RateLimiter;
  random: () => number;
  now: () => number;
  /** Where submissions and refusals are logged (never with a credential). */
  logger: Logger | undefined;
}

export interface ContextOptions {
  /** Source of randomness for injected error rates (tests pass a fixed one). */
  random?: () => number;
  now?: () => number;
  logger?: Logger;
}

export function createSimContext(config: SimConfig, options: ContextOptions = {}): SimContext {
  const decisionTable = new SandboxDecisionTable();
  const xmlOutliner = loadXmlOutliner();
  // A failed load is answered to the accounts that wait for it (HTTP 500), not left unhandled.
  xmlOutliner.catch(() => undefined);
  const now = options.now ?? Date.now;
  return {
    config,
    timing: new Timing(config.timing),
    decisionTable,
    faults: new Faults(),
    hanging: new HangingRequests(config.hangMs),
    received: new ReceivedLog(config.maxReceived),
    taxSubmissions: new BoundedMap(config.maxSubmissions),
    registrySubmissions: new BoundedMap(config.maxSubmissions),
    directory: new CompanyDirectory(decisionTable, config.registryData.asOf),
    ctSchema: new CtSchemaCheck(),
    xmlOutliner,
    rateLimiter: new RateLimiter(config.registryData.rateLimitPer5Min, now),
    random: options.random ?? Math.random,
    now,
    logger: options.logger,
  };
}

/** Back to the state at start: no submissions, log, faults or overrides; configured timing. */
export function resetSimContext(context: SimContext): void {
  context.taxSubmissions.clear();
  context.registrySubmissions.clear();
  context.received.clear();
  context.faults.clear();
  context.decisionTable.clearOverrides();
  context.rateLimiter.reset();
  context.timing.update(context.config.timing);
  context.hanging.hangMs = context.config.hangMs;
  context.hanging.dropAll();
}
