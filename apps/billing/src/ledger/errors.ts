import { AppError } from "@dormant/contracts";
import { formatPence } from "../money/pence.ts";

/** 402: the available balance (balance minus open holds) is below the amount to hold. */
export function insufficientBalance(requiredPence: bigint, availablePence: bigint): AppError {
  const required = formatPence(requiredPence);
  const available = formatPence(availablePence < 0n ? 0n : availablePence);
  return new AppError("INSUFFICIENT_BALANCE", `Insufficient balance: ${required} GBP required, ${available} GBP available`, {
    retryable: false,
    details: [{ field: "balance", message: `${required} GBP required, ${available} GBP available`, required, available, currency: "GBP" }],
  });
}

/** The account is not known to billing (never opened there). */
export function unknownAccount(accountId: string): AppError {
  return new AppError("NOT_FOUND", `No billing account "${accountId}"`, { retryable: false });
}

/** The same idempotency reference (filing id, payment id) arrived with different contents. */
export function conflictingReuse(what: string): AppError {
  return new AppError("IDEMPOTENCY_KEY_CONFLICT", what, { retryable: false });
}
