import { randomBytes, randomUUID } from "node:crypto";
import { renderDormantAccountsIxbrl, type DormantAccountsInput } from "@dormant/documents";
import type { FilingDb } from "../db/client.ts";
import { newFilingId } from "../ids.ts";
import type { NewFiling } from "../submit/new-filing.ts";
import { applyOutcome } from "../outcomes/apply-outcome.ts";
import { applyRegistryOutcome } from "../outcomes/registry-changes.ts";
import { applyTaxOutcome } from "../outcomes/tax-part-changes.ts";
import { insertPendingFiling } from "../submit/pending-filing.ts";
import { recordRegistrySubmitted, recordTaxPartSubmitted } from "../submit/record-submission.ts";

/**
 * Test support: filings written through the service's own functions (as a submit writes them),
 * with acknowledgements shaped like the submitters' answers, for tests that look at what
 * happens after the submit (outcomes, reads, the sweeper, the outbox).
 */
export interface SeedOptions {
  accountId?: string;
  keyId?: string;
  idempotencyKey?: string;
  companyNumber?: string;
  periodEnd?: string;
  /** Acknowledge the submissions (default true): the filing is then `submitted`. */
  acknowledged?: boolean;
  /** Seconds the filing's claim lasts (0: none left, as after a crash long ago). */
  claimSeconds?: number;
}

export interface SeededFiling {
  id: string;
  accountId: string;
  keyId: string;
  correlationIds: string[];
  submissionNumber?: string;
}

const correlationId = () => randomBytes(16).toString("hex").toUpperCase();

export async function seedCt600Filing(db: FilingDb, parts: 1 | 2, options: SeedOptions = {}): Promise<SeededFiling> {
  const id = newFilingId();
  const periods =
    parts === 1
      ? [{ start: "2025-04-01", end: "2026-03-31" }]
      : [
          { start: "2025-01-01", end: "2025-12-31" },
          { start: "2026-01-01", end: "2026-03-31" },
        ];
  const companyNumber = options.companyNumber ?? "00000001";
  const filing: NewFiling = {
    id,
    filingType: "ct600",
    companyNumber,
    companyName: "LOVELACE ENGINES LIMITED",
    period: { start: periods[0]!.start, end: options.periodEnd ?? periods.at(-1)!.end },
    periodSplit: parts === 2,
    derivedValues: {
      company_name: "LOVELACE ENGINES LIMITED",
      period_start: periods[0]!.start,
      is_first_year: false,
      declarant_name: "Augusta Ada Lovelace",
      declarant_status: "Director",
    },
    parts: periods.map((period, index) => ({
      partNumber: index + 1,
      period,
      request: {
        filing_id: id,
        part_number: index + 1,
        parts_total: parts,
        company: { number: companyNumber, name: "LOVELACE ENGINES LIMITED", utr: "1234567890" },
        period,
        declarant: { name: "Augusta Ada Lovelace", status: "Director" },
      },
    })),
    documents: [],
  };
  const origin = seedOrigin(options);
  await insertPendingFiling(db, filing, origin);
  const correlationIds = periods.map(() => correlationId());
  if (options.acknowledged !== false) {
    for (const [index, correlation] of correlationIds.entries()) {
      await recordTaxPartSubmitted(db, id, index + 1, submitAnswer(correlation), "seed");
    }
  }
  return { id, accountId: origin.accountId, keyId: origin.keyId, correlationIds };
}

/** The facts of a seeded accounts filing (as accounts-plan derives them), in pence. */
export function seedAccountsInput(companyNumber: string, periodEnd: string): DormantAccountsInput {
  return {
    companyName: "LOVELACE ENGINES LIMITED",
    companyNumber,
    registryCompanyType: "ltd",
    jurisdiction: "england-wales",
    periodStart: "2025-04-01",
    periodEnd,
    approvalDate: "2026-05-01",
    directorName: "Augusta Ada Lovelace",
    directorPosition: "Director",
    current: { cash: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 0 },
  };
}

export async function seedAccountsFiling(db: FilingDb, options: SeedOptions = {}): Promise<SeededFiling> {
  const id = newFilingId();
  const companyNumber = options.companyNumber ?? "00000001";
  const accountsInput = seedAccountsInput(companyNumber, options.periodEnd ?? "2026-03-31");
  const filing: NewFiling = {
    id,
    filingType: "accounts",
    companyNumber,
    companyName: "LOVELACE ENGINES LIMITED",
    period: { start: "2025-04-01", end: options.periodEnd ?? "2026-03-31" },
    periodSplit: false,
    derivedValues: {
      company_name: "LOVELACE ENGINES LIMITED",
      entity_type: "ltd",
      period_start: "2025-04-01",
      is_first_year: false,
      director_name: "Augusta Ada Lovelace",
      approval_date: "2026-05-01",
      share_capital: 100,
      cash: 100,
    },
    parts: [],
    accountsInput,
    registry: {
      filing_id: id,
      company: { number: companyNumber, name: "LOVELACE ENGINES LIMITED", registry_company_type: "EW" },
      date_signed: "2026-05-01",
      document_filename: `${companyNumber}-accounts.xhtml`,
    },
    documents: [
      {
        type: "ixbrl_accounts",
        partNumber: null,
        mediaType: "application/xhtml+xml",
        fileName: `${companyNumber}-accounts.xhtml`,
        content: Buffer.from(renderDormantAccountsIxbrl(accountsInput), "utf8"),
      },
    ],
  };
  const origin = seedOrigin(options);
  await insertPendingFiling(db, filing, origin);
  const row = await db.filing.findUniqueOrThrow({ where: { id } });
  if (options.acknowledged !== false) {
    await recordRegistrySubmitted(
      db,
      id,
      { submission_number: row.registrySubmissionNumber!, submitted_at: new Date().toISOString() },
      "seed",
    );
  }
  return { id, accountId: origin.accountId, keyId: origin.keyId, correlationIds: [], submissionNumber: row.registrySubmissionNumber! };
}

function seedOrigin(options: SeedOptions) {
  return {
    // An account of its own unless given: an account has one live filing per type, company and
    // period end (the partial unique index filings_live_filing_key, 409 FILING_EXISTS).
    accountId: options.accountId ?? `acc_seed_${randomUUID()}`,
    keyId: options.keyId ?? "key_seed",
    idempotencyKey: options.idempotencyKey ?? randomUUID(),
    fingerprint: "f".repeat(64),
    requestId: randomUUID(),
    feePence: 2000,
    claimToken: randomUUID(),
    claimSeconds: options.claimSeconds ?? 0,
  };
}

/** An acknowledgement as the tax submitter answers tax.submit_part. */
export function submitAnswer(correlation: string) {
  return {
    correlation_id: correlation,
    irmark_base64: `${"A".repeat(27)}=`,
    irmark_base32: "B".repeat(32),
    poll_interval_seconds: 1,
    submitted_at: new Date().toISOString(),
    submitted_xml: `<GovTalkMessage><CorrelationID>${correlation}</CorrelationID></GovTalkMessage>`,
  };
}

/** The receipt an accepted part gets in acceptSeededPart; each field has a default. */
export interface SeedReceipt {
  irmarkBase32?: string;
  message?: string;
  acceptedAt?: string;
}

/** Part `part` of a seeded CT600 filing accepted by the tax authority, applied as the outcome consumer does. */
export async function acceptSeededPart(db: FilingDb, filing: SeededFiling, part: number, receipt: SeedReceipt = {}): Promise<void> {
  await applyOutcome(
    db,
    { messageId: randomUUID(), type: "tax.part_outcome", filingId: filing.id, requestId: "r" },
    applyTaxOutcome({
      outcome: "accepted",
      filing_id: filing.id,
      part_number: part,
      correlation_id: filing.correlationIds[part - 1]!,
      receipt_irmark_base32: receipt.irmarkBase32 ?? "R".repeat(32),
      receipt_message: receipt.message ?? "received",
      accepted_time: receipt.acceptedAt ?? new Date().toISOString(),
    }),
  );
}

/** Part `part` of a seeded CT600 filing rejected by the tax authority (UTR mismatch), applied as the outcome consumer does. */
export async function rejectSeededPart(db: FilingDb, filing: SeededFiling, part: number): Promise<void> {
  await applyOutcome(
    db,
    { messageId: randomUUID(), type: "tax.part_outcome", filingId: filing.id, requestId: "r" },
    applyTaxOutcome({
      outcome: "rejected",
      filing_id: filing.id,
      part_number: part,
      correlation_id: filing.correlationIds[part - 1]!,
      error: { code: "TAX_UTR_MISMATCH", message: "The UTR does not match." },
      authority_errors: [],
    }),
  );
}

/** A seeded accounts filing accepted by the registry, applied as the outcome consumer does. */
export async function acceptSeededAccounts(db: FilingDb, filing: SeededFiling): Promise<void> {
  await applyOutcome(
    db,
    { messageId: randomUUID(), type: "registry.outcome", filingId: filing.id, requestId: "r" },
    applyRegistryOutcome({
      outcome: "accepted",
      filing_id: filing.id,
      submission_number: filing.submissionNumber!,
      registry_status: "ACCEPT",
      decided_at: new Date().toISOString(),
    }),
  );
}
