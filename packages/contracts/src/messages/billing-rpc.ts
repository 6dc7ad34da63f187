import { z } from "zod";

/**
 * The billing service's RPCs on `billing.rpc`. Amounts are integer pence. The filing service
 * holds the fee before anything reaches an authority and releases it when a submit fails before
 * reaching one; captures and releases after an outcome come from filing events, not RPCs.
 */
export const BILLING_RPC_QUEUE = "billing.rpc";

const Pence = z.number().int().min(0);
const FilingId = z.string().regex(/^fil_[A-Za-z0-9_-]{1,64}$/);

/** `billing.hold`: idempotent per filing_id (a retried hold returns the existing one). */
export const HoldFeeRequest = z.object({ account_id: z.string().min(1), filing_id: FilingId, amount_pence: Pence.positive() });
export type HoldFeeRequest = z.infer<typeof HoldFeeRequest>;
/** Failure: AppError INSUFFICIENT_BALANCE with a `balance` detail (required, available). */
export const HoldFeeResponse = z.object({ hold_id: z.string(), available_pence: Pence });
export type HoldFeeResponse = z.infer<typeof HoldFeeResponse>;

/** `billing.release`: idempotent; releasing an unknown or already settled hold is a no-op. */
export const ReleaseHoldRequest = z.object({ filing_id: FilingId, reason: z.string().min(1).max(200) });
export type ReleaseHoldRequest = z.infer<typeof ReleaseHoldRequest>;
export const ReleaseHoldResponse = z.object({ released: z.boolean() });
export type ReleaseHoldResponse = z.infer<typeof ReleaseHoldResponse>;

/** `billing.get_balance`: what GET /api/v1/account shows. */
export const GetBalanceRequest = z.object({ account_id: z.string().min(1) });
export type GetBalanceRequest = z.infer<typeof GetBalanceRequest>;
export const BalanceResponse = z.object({
  account_id: z.string(),
  balance_pence: z.number().int(),
  held_pence: Pence,
  available_pence: z.number().int(),
});
export type BalanceResponse = z.infer<typeof BalanceResponse>;
