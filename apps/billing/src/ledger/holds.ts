import { AppError } from "@dormant/contracts";
import { inTransaction, type BillingDb, type BillingTx } from "../db/client.ts";
import { newId } from "../ids.ts";
import { conflictingReuse, insufficientBalance } from "./errors.ts";
import { lockAccount } from "./lock.ts";

export interface PlaceHoldInput {
  accountId: string;
  filingId: string;
  amountPence: bigint;
}

export interface PlacedHold {
  holdId: string;
  /** What remains available after this hold. */
  availablePence: bigint;
  /** False when the filing already had this hold (a retried request). */
  created: boolean;
}

/**
 * Reserves the fee of a filing before anything is sent to an authority. Atomic per account: the
 * account row is locked, the available balance (balance minus open holds) checked, and the hold
 * and its ledger entry written in one transaction, so concurrent holds can never together exceed
 * the balance (the database's CHECK would refuse it anyway). Idempotent per filing: a hold that
 * is open or captured is returned as it is; one released earlier (a submit that failed before
 * reaching the authority) is opened again when the same filing is held again.
 * Throws INSUFFICIENT_BALANCE (402) with the required and available amounts, and
 * IDEMPOTENCY_KEY_CONFLICT when the filing is held for another account or amount.
 * `signal`: when it fires before the commit (the caller stopped waiting), nothing is held.
 */
export async function placeHold(db: BillingDb, input: PlaceHoldInput, signal?: AbortSignal): Promise<PlacedHold> {
  const { accountId, filingId, amountPence } = input;
  if (amountPence <= 0n) throw new RangeError("a hold must be for a positive amount");
  return inTransaction(db, async (tx) => {
    const account = await lockAccount(tx, accountId);
    const existing = await tx.hold.findUnique({ where: { filingId } });
    if (existing && (existing.accountId !== accountId || existing.amountPence !== amountPence)) {
      throw conflictingReuse(`Filing ${filingId} is already held for a different account or amount`);
    }
    const available = account ? account.balancePence - account.heldPence : 0n;
    if (existing && existing.state !== "released") {
      return { holdId: existing.id, availablePence: available, created: false };
    }
    if (!account || available < amountPence) throw insufficientBalance(amountPence, available);

    const holdId = existing ? await reopen(tx, existing.id) : await create(tx, input);
    await tx.ledgerEntry.create({ data: { accountId, kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: amountPence, filingId } });
    if (signal?.aborted) throw new AppError("SERVICE_UNAVAILABLE", "The hold request expired before it was committed", { retryable: true });
    return { holdId, availablePence: available - amountPence, created: true };
  });
}

async function create(tx: BillingTx, input: PlaceHoldInput): Promise<string> {
  const hold = await tx.hold.create({
    data: { id: newId("hold"), filingId: input.filingId, accountId: input.accountId, amountPence: input.amountPence },
  });
  return hold.id;
}

async function reopen(tx: BillingTx, holdId: string): Promise<string> {
  const { count } = await tx.hold.updateMany({
    where: { id: holdId, state: "released" },
    data: { state: "open", releaseReason: null, updatedAt: new Date() },
  });
  // Under the account lock nothing else can move this hold; if it did, refuse rather than guess.
  if (count !== 1) throw new AppError("SERVICE_UNAVAILABLE", "The hold changed concurrently; retry", { retryable: true });
  return holdId;
}

/**
 * Gives back the open hold of a filing (a submit that failed before reaching the authority).
 * Idempotent: releasing an unknown, already released or captured hold changes nothing and
 * answers false.
 */
export async function releaseHold(db: BillingDb, input: { filingId: string; reason: string }): Promise<{ released: boolean }> {
  return inTransaction(db, async (tx) => {
    const hold = await tx.hold.findUnique({ where: { filingId: input.filingId } });
    if (!hold) return { released: false };
    await lockAccount(tx, hold.accountId);
    const released = await settleOpenHold(tx, input.filingId, "released", input.reason);
    return { released };
  });
}

/**
 * Moves the open hold of a filing to captured (balance and held both go down by its amount) or
 * released (held goes down), writing the matching ledger entry. Guarded: only an open hold
 * moves, so a capture or release happens at most once per hold. Call with the account locked.
 * Returns whether the hold was open.
 */
export async function settleOpenHold(tx: BillingTx, filingId: string, to: "captured" | "released", reason: string): Promise<boolean> {
  const { count } = await tx.hold.updateMany({
    where: { filingId, state: "open" },
    data: { state: to, updatedAt: new Date(), ...(to === "released" ? { releaseReason: reason } : {}) },
  });
  if (count === 0) return false;
  const hold = await tx.hold.findUniqueOrThrow({ where: { filingId } });
  const amount = hold.amountPence;
  await tx.ledgerEntry.create({
    data:
      to === "captured"
        ? { accountId: hold.accountId, kind: "capture", balanceDeltaPence: -amount, heldDeltaPence: -amount, filingId, note: reason }
        : { accountId: hold.accountId, kind: "release", balanceDeltaPence: 0n, heldDeltaPence: -amount, filingId, note: reason },
  });
  return true;
}
