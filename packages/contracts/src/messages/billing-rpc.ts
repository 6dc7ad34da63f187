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

const AccountIdField = z.string().regex(/^acc_[A-Za-z0-9]{1,64}$/);
const Timestamp = z.string().datetime({ offset: true });

/**
 * `billing.open_account`: the billing side of a new account, idempotent (opening an open account
 * answers it unchanged; the opening balance is credited once). The gateway calls it when the
 * dashboard signs an agent up (zero balance); `admin open-account` does the same by hand.
 */
export const OpenAccountRequest = z.object({
  account_id: AccountIdField,
  name: z.string().trim().min(1).max(200),
  opening_balance_pence: Pence,
});
export type OpenAccountRequest = z.infer<typeof OpenAccountRequest>;
export const OpenAccountResponse = z.object({ account_id: AccountIdField, created: z.boolean() });
export type OpenAccountResponse = z.infer<typeof OpenAccountResponse>;

/** One ledger line as the account's owner sees it. Deltas are signed pence. */
export const LedgerLine = z.object({
  entry_id: z.string(),
  /** `reversal`: money the payment provider took back from a payment (a refund or a dispute). */
  kind: z.enum(["credit", "hold", "capture", "release", "reversal"]),
  balance_delta_pence: z.number().int(),
  held_delta_pence: z.number().int(),
  filing_id: z.string().nullable(),
  /** For credits: the top-up's source (`payment`, `opening`, `admin`) and the provider's payment id. */
  top_up: z.object({ source: z.string(), payment_id: z.string() }).nullable(),
  /** For reversals: a refund or a dispute, the provider's id for it, and the payment it took money back from. */
  reversal: z
    .object({ kind: z.enum(["refund", "dispute"]), provider_id: z.string(), payment_id: z.string() })
    .nullable()
    .optional(),
  note: z.string().nullable(),
  created_at: Timestamp,
});
export type LedgerLine = z.infer<typeof LedgerLine>;

/** `billing.list_ledger`: newest first, paged. */
export const ListLedgerRequest = z.object({
  account_id: AccountIdField,
  limit: z.number().int().min(1).max(100),
  offset: z.number().int().min(0),
});
export type ListLedgerRequest = z.infer<typeof ListLedgerRequest>;
export const LedgerPage = z.object({
  lines: z.array(LedgerLine),
  pagination: z.object({ total: z.number().int().min(0), limit: z.number().int(), offset: z.number().int(), has_more: z.boolean() }),
});
export type LedgerPage = z.infer<typeof LedgerPage>;

/**
 * `billing.create_checkout`: starts a top-up with the payment provider (its URL is billing's
 * configuration) and answers the provider's checkout page to send the agent to. The balance
 * changes only when the provider's signed payment webhook arrives (POST /webhooks/payments).
 */
export const CreateCheckoutRequest = z.object({
  account_id: AccountIdField,
  /** £5.00 to £10,000.00. */
  amount_pence: z.number().int().min(500).max(1_000_000),
  /** Where the provider sends the agent back (the dashboard's pages). */
  success_url: z.string().url(),
  cancel_url: z.string().url(),
});
export type CreateCheckoutRequest = z.infer<typeof CreateCheckoutRequest>;
export const CheckoutSession = z.object({ checkout_id: z.string(), checkout_url: z.string().url(), amount_pence: Pence });
export type CheckoutSession = z.infer<typeof CheckoutSession>;
