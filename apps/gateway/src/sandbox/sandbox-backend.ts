import { createSecretKey, type KeyObject } from "node:crypto";
import { calendarDateAt } from "@dormant/company-data";
import {
  AppError,
  DOCUMENT_TYPES_BY_FILING_TYPE,
  type FilingType,
  type SandboxFiling,
  type SandboxFilingsList,
  type SandboxSubmitResponse,
  type SandboxWebhookEvent,
  sandboxCompany,
  type WebhookEventType,
} from "@dormant/contracts";
import type { FilingBackend, FilingCaller } from "../filing-backend/filing-backend.ts";
import { parseSandboxFilingId, sandboxFilingId, sandboxReference, type SandboxFilingRef } from "./filing-id.ts";
import { sampleDocument, sampleDocuments } from "./sample-documents.ts";
import { sandboxDeadlines } from "./sandbox-deadlines.ts";
import { sandboxEventId, type SandboxEventPublisher, sandboxEventType } from "./sandbox-events.ts";

const AUTHORITY: Record<FilingType, string> = { ct600: "tax authority", accounts: "company registry" };

const SAMPLE_DOCUMENTS_MESSAGE =
  "Sandbox sample documents, rendered on request and marked SANDBOX: nothing was filed or stored. The sandbox keeps no request, " +
  "so they show the company number of the filing id with sample data (company name, UTR, period, director); a live filing's " +
  "documents show what was filed.";

/** The spec's sandbox list: always empty, limit 50, offset 0. */
export const SANDBOX_LIST: SandboxFilingsList = {
  filings: [],
  pagination: { total: 0, limit: 50, offset: 0, has_more: false },
  sandbox: true,
  message:
    "Sandbox filings are stateless and are not stored, so this list is always empty. Poll a sandbox filing with GET /api/v1/filings/{filing_id}.",
};

function notFound(): AppError {
  return new AppError("FILING_NOT_FOUND", "No filing with this id for this API key");
}

/** The sandbox filing an id stands for; anything else (live ids included) is not found. */
function refOf(filingId: string): SandboxFilingRef {
  const ref = parseSandboxFilingId(filingId);
  if (!ref) throw notFound();
  return ref;
}

/**
 * A sandbox filing's webhook events, as the notifier delivers them to the test key's endpoints and
 * in the order a live filing has them: its outcome (`filing.accepted`, `filing.rejected`,
 * `filing.errored`), then for an accepted one `filing.documents_ready` (its sample documents can be
 * downloaded at once). `data` is what a poll of the filing answers, with the submit's
 * `client_reference` when it had one (a live filing's events carry it too); each id is derived
 * from the filing id and the event type.
 */
export function sandboxWebhookEvents(
  accountId: string,
  filingId: string,
  clientReference?: string,
  now: Date = new Date(),
): SandboxWebhookEvent[] {
  const ref = parseSandboxFilingId(filingId);
  if (!ref) throw new Error(`not a sandbox filing id: ${filingId}`);
  const { outcome } = sandboxCompany(ref.companyNumber);
  const data: SandboxFiling = { ...sandboxFiling(ref), ...(clientReference === undefined ? {} : { client_reference: clientReference }) };
  const types: WebhookEventType[] = [sandboxEventType(outcome), ...(outcome === "accepted" ? (["filing.documents_ready"] as const) : [])];
  return types.map((type) => ({
    account_id: accountId,
    event: { id: sandboxEventId(ref, type), type, created_at: now.toISOString(), data },
  }));
}

async function submitted(
  secret: KeyObject,
  publishEvent: SandboxEventPublisher,
  caller: FilingCaller,
  type: FilingType,
  idempotencyKey: string,
  body: { company_number: string; client_reference?: string | undefined },
): Promise<SandboxSubmitResponse> {
  const scenario = sandboxCompany(body.company_number);
  const filingId = sandboxFilingId(secret, type, body.company_number, idempotencyKey, body);
  // The test key's webhook endpoints get the events at once (publishEvent never rejects).
  await publishEvent(caller.accountId, () => sandboxWebhookEvents(caller.accountId, filingId, body.client_reference));
  const when = scenario.immediate ? "The outcome is immediate: the first poll returns it." : "The first poll returns the final status.";
  return {
    filing_id: filingId,
    status: "submitted",
    sandbox: true,
    message: `Sandbox submission: nothing was sent to the ${AUTHORITY[type]}, stored or charged. Poll GET /api/v1/filings/${filingId} for the outcome. ${when}`,
    expected_outcome: scenario.outcome,
    // Echoed from the request: sandbox filings are not stored, so their reads cannot show it.
    ...(body.client_reference === undefined ? {} : { client_reference: body.client_reference }),
  };
}

/** What a poll answers: the final status at once, every reference derived from the id. */
export function sandboxFiling(ref: SandboxFilingRef): SandboxFiling {
  const scenario = sandboxCompany(ref.companyNumber);
  const accepted = scenario.outcome === "accepted";
  return {
    filing_id: ref.filingId,
    filing_type: ref.filingType,
    company_number: ref.companyNumber,
    status: scenario.outcome,
    sandbox: true,
    tax_status: scenario.outcome,
    tax_correlation_id: sandboxReference(ref, "CORR", 32),
    ...(accepted ? { tax_iru_number: sandboxReference(ref, "IRU", 16) } : {}),
    ...(ref.filingType === "accounts"
      ? { registry_status: scenario.outcome, registry_submission_number: sandboxReference(ref, "SUB", 16) }
      : {}),
    ...(scenario.error ? { error: scenario.error } : {}),
  };
}

function requireAccepted(ref: SandboxFilingRef): void {
  const outcome = sandboxCompany(ref.companyNumber).outcome;
  if (outcome !== "accepted") {
    throw new AppError("FILING_NOT_COMPLETE", `Documents exist only for accepted filings; this sandbox filing is ${outcome}`);
  }
}

/**
 * Sandbox mode (spec "Sandbox behaviour"): the same validated input as live, but nothing is sent,
 * stored or charged. Validation is the same as live too, derived from the sandbox's registry. Everything is derived from the filing id, so any replica answers any poll;
 * an accepted filing's documents are samples rendered on request (sample-documents.ts).
 * `secret` keys the id hash (see sandboxFilingId). A submit also publishes its webhook events for
 * the test key's webhook endpoints (`notifier.sandbox_event`); a failed publish is only logged.
 */
export function createSandboxBackend(options: {
  secret: string;
  /** Answers a test key's validation (the filing service derives it from the sandbox's registry). */
  validator: Pick<FilingBackend, "validateCt600" | "validateAccounts">;
  /** Hands each submit's outcome event to the notifier (sandbox-events.ts). */
  publishEvent: SandboxEventPublisher;
}): FilingBackend {
  const secret = createSecretKey(Buffer.from(options.secret, "utf8"));
  return {
    validateCt600: (caller, body) => options.validator.validateCt600(caller, body),
    validateAccounts: (caller, body) => options.validator.validateAccounts(caller, body),
    submitCt600: (caller, { idempotencyKey, body }) => submitted(secret, options.publishEvent, caller, "ct600", idempotencyKey, body),
    submitAccounts: (caller, { idempotencyKey, body }) => submitted(secret, options.publishEvent, caller, "accounts", idempotencyKey, body),
    async getFiling(_caller, filingId) {
      return sandboxFiling(refOf(filingId));
    },
    async listFilings() {
      return SANDBOX_LIST;
    },
    async getCompanyDeadlines(_caller, companyNumber) {
      return sandboxDeadlines(companyNumber, calendarDateAt(new Date()));
    },
    async listDocuments(_caller, filingId) {
      const ref = refOf(filingId);
      requireAccepted(ref);
      const documents = await sampleDocuments(ref);
      return {
        filing_id: ref.filingId,
        documents: documents.map((d) => ({ type: d.type, name: d.fileName, size_bytes: d.content.length, generated_at: d.generatedAt })),
        sandbox: true,
        message: SAMPLE_DOCUMENTS_MESSAGE,
      };
    },
    async openDocument(_caller, filingId, type, part) {
      const ref = refOf(filingId);
      if (!DOCUMENT_TYPES_BY_FILING_TYPE[ref.filingType].includes(type)) {
        throw new AppError("DOCUMENT_NOT_FOUND", `A ${ref.filingType} filing has no ${type} document`);
      }
      requireAccepted(ref);
      // Sandbox returns are never split: there is only part 1.
      if (part !== undefined && part !== 1)
        throw new AppError("DOCUMENT_NOT_FOUND", `This sandbox filing has no part ${part} of its ${type} document`);
      const document = await sampleDocument(ref, type);
      return { mediaType: document.mediaType, fileName: document.fileName, sizeBytes: document.content.length, chunks: [document.content] };
    },
  };
}
