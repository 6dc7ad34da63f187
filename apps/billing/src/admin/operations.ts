import { randomUUID } from "node:crypto";
import type { BillingDb } from "../db/client.ts";
import { openAccount as openLedgerAccount, type OpenAccountInput } from "../ledger/accounts.ts";
import { getBalance as readBalance } from "../ledger/balance.ts";
import { unknownAccount } from "../ledger/errors.ts";
import {
  crossCheckWithFilings,
  type FilingsCrossCheckOptions,
  type FilingsCrossCheckReport,
  type ListFinalFilings,
} from "../ledger/filings-cross-check.ts";
import { reconcile as reconcileLedger, type ReconcileOptions, type ReconcileReport } from "../ledger/reconcile.ts";
import { accountStatement } from "../ledger/statement.ts";
import { applyTopUp } from "../ledger/top-ups.ts";
import { formatPence, toPence } from "../money/pence.ts";

/** An account's totals as operators read them: decimal GBP strings like "80.00". */
export interface BalanceView {
  account_id: string;
  balance: string;
  held: string;
  available: string;
}

async function balanceView(db: BillingDb, accountId: string): Promise<BalanceView> {
  const balance = await readBalance(db, accountId);
  if (!balance.known) throw unknownAccount(accountId);
  return {
    account_id: accountId,
    balance: formatPence(balance.balancePence),
    held: formatPence(balance.heldPence),
    available: formatPence(balance.availablePence),
  };
}

/**
 * Opens the billing side of an account the gateway created (same `acc_...` id) and records its
 * opening balance as a ledger credit. Idempotent (see ledger/accounts.ts).
 */
export async function openAccount(
  db: BillingDb,
  input: { accountId: string; openingBalancePence: bigint | number; name?: string },
): Promise<BalanceView & { created: boolean }> {
  const request: OpenAccountInput = {
    accountId: input.accountId,
    openingBalancePence: toPence(input.openingBalancePence, "openingBalancePence"),
    ...(input.name === undefined ? {} : { name: input.name }),
  };
  const opened = await openLedgerAccount(db, request);
  return { ...(await balanceView(db, input.accountId)), created: opened.created };
}

/** `{account_id, balance, held, available}`; NOT_FOUND when billing has no such account. */
export function getBalance(db: BillingDb, accountId: string): Promise<BalanceView> {
  return balanceView(db, accountId);
}

/**
 * Credits a payment, through the same code as the payment provider's webhook. `paymentId`
 * makes a retry safe (same id: credited once); without one a fresh `admin_<uuid>` is used.
 */
export async function topUp(
  db: BillingDb,
  input: { accountId: string; amountPence: bigint | number; paymentId?: string },
): Promise<BalanceView & { payment_id: string; top_up_id: string; amount: string; duplicate: boolean }> {
  const paymentId = input.paymentId ?? `admin_${randomUUID()}`;
  const applied = await applyTopUp(db, {
    accountId: input.accountId,
    amountPence: toPence(input.amountPence, "amountPence"),
    paymentId,
    source: "admin",
  });
  return {
    ...(await balanceView(db, input.accountId)),
    payment_id: applied.paymentId,
    top_up_id: applied.topUpId,
    amount: formatPence(applied.amountPence),
    duplicate: applied.duplicate,
  };
}

export interface LedgerLineView {
  entry_id: number;
  kind: "credit" | "hold" | "capture" | "release" | "reversal";
  balance_delta: string;
  held_delta: string;
  balance_after: string;
  held_after: string;
  filing_id: string | null;
  payment_id: string | null;
  top_up_source: "opening" | "webhook" | "admin" | null;
  /** A reversal's kind (refund, dispute) and the provider's id for it. */
  reversal: { kind: "refund" | "dispute"; provider_id: string } | null;
  note: string | null;
  created_at: string;
}

/** The account's latest entries (oldest first) with running totals, and its current totals. */
export async function listLedger(
  db: BillingDb,
  input: { accountId: string; limit?: number },
): Promise<BalanceView & { entries: LedgerLineView[] }> {
  const view = await balanceView(db, input.accountId);
  const lines = await accountStatement(db, input.accountId, input.limit);
  return {
    ...view,
    entries: lines.map((line) => ({
      entry_id: Number(line.entryId),
      kind: line.kind,
      balance_delta: formatPence(line.balanceDeltaPence),
      held_delta: formatPence(line.heldDeltaPence),
      balance_after: formatPence(line.balanceAfterPence),
      held_after: formatPence(line.heldAfterPence),
      filing_id: line.filingId,
      payment_id: line.paymentId,
      top_up_source: line.source,
      reversal: line.reversal ? { kind: line.reversal.kind, provider_id: line.reversal.providerId } : null,
      note: line.note,
      created_at: line.createdAt.toISOString(),
    })),
  };
}

/** The ledger's invariants checked (ledger/reconcile.ts): `{ok, problems[], warnings[], corrections[], checked}`. */
export function reconcile(db: BillingDb, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  return reconcileLedger(db, options);
}

/** reconcile's report with the cross-check against the filing service merged in, and what that checked. */
export interface ReconcileAgainstFilingsReport extends ReconcileReport {
  against_filings: FilingsCrossCheckReport["checked"];
}

/**
 * reconcile, then the cross-check against the filing service's final filings of a window
 * (ledger/filings-cross-check.ts, pages from `listFinal`): one report, `ok` only when neither
 * found a problem, the cross-check's problems and warnings after reconcile's.
 */
export async function reconcileAgainstFilings(
  db: BillingDb,
  listFinal: ListFinalFilings,
  options: ReconcileOptions & FilingsCrossCheckOptions,
): Promise<ReconcileAgainstFilingsReport> {
  const ledger = await reconcileLedger(db, options);
  const filings = await crossCheckWithFilings(db, listFinal, options);
  return {
    ok: ledger.ok && filings.ok,
    problems: [...ledger.problems, ...filings.problems],
    warnings: [...ledger.warnings, ...filings.warnings],
    corrections: ledger.corrections,
    checked: ledger.checked,
    against_filings: filings.checked,
  };
}
