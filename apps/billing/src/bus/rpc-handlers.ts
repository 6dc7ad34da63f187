import type { RpcHandlerMap } from "@dormant/bus";
import { isAppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { createCheckout } from "../checkout/create-checkout.ts";
import type { BillingDb } from "../db/client.ts";
import type { PaymentProviderConfig } from "../env.ts";
import { getBalance } from "../ledger/balance.ts";
import { placeHold, releaseHold } from "../ledger/holds.ts";
import type { BillingMetrics } from "../metrics.ts";
import { penceToNumber } from "../money/pence.ts";
import type { BILLING_RPC_CATALOG } from "./catalog.ts";
import { listLedgerRpc } from "./list-ledger.ts";
import { openAccountRpc } from "./open-account.ts";
import { asServiceUnavailable } from "./unavailable.ts";

export interface BillingRpcDeps {
  db: BillingDb;
  logger: Logger;
  metrics: BillingMetrics;
  /** Where billing.create_checkout creates checkouts (null: top-ups unavailable). */
  paymentProvider: PaymentProviderConfig | null;
}

/**
 * `billing.rpc`: hold the fee of a filing (before anything reaches an authority), release it (a
 * submit that failed before reaching one), read an account's balance (GET /api/v1/account), open
 * an account (the gateway, when the dashboard signs an agent up), list its ledger and start a
 * top-up with the payment provider's checkout (the dashboard).
 * Amounts are integer pence; an account billing does not know has a zero balance.
 */
export function billingRpcHandlers({
  db,
  logger,
  metrics,
  paymentProvider,
}: BillingRpcDeps): RpcHandlerMap<typeof BILLING_RPC_CATALOG, "billing.rpc"> {
  return {
    "billing.hold": async (request, context) => {
      try {
        const hold = await placeHold(
          db,
          { accountId: request.account_id, filingId: request.filing_id, amountPence: BigInt(request.amount_pence) },
          context.signal,
        );
        metrics.holds.inc({ result: hold.created ? "held" : "existing" });
        logger.info(
          { account_id: request.account_id, filing_id: request.filing_id, hold_id: hold.holdId, created: hold.created },
          "fee held",
        );
        return { hold_id: hold.holdId, available_pence: penceToNumber(hold.availablePence) };
      } catch (error) {
        const refusal = isAppError(error) ? (error.code === "INSUFFICIENT_BALANCE" ? "insufficient_balance" : "refused") : "failed";
        metrics.holds.inc({ result: refusal });
        if (refusal === "insufficient_balance")
          logger.info({ account_id: request.account_id, filing_id: request.filing_id }, "fee hold refused: insufficient balance");
        throw asServiceUnavailable(error, logger, "billing.hold");
      }
    },

    "billing.release": async (request) => {
      try {
        const result = await releaseHold(db, { filingId: request.filing_id, reason: request.reason });
        metrics.releases.inc({ released: String(result.released) });
        logger.info({ filing_id: request.filing_id, released: result.released, reason: request.reason }, "fee hold release requested");
        return result;
      } catch (error) {
        throw asServiceUnavailable(error, logger, "billing.release");
      }
    },

    "billing.get_balance": async (request) => {
      try {
        const balance = await getBalance(db, request.account_id);
        return {
          account_id: balance.accountId,
          balance_pence: penceToNumber(balance.balancePence),
          held_pence: penceToNumber(balance.heldPence),
          available_pence: penceToNumber(balance.availablePence),
        };
      } catch (error) {
        throw asServiceUnavailable(error, logger, "billing.get_balance");
      }
    },

    "billing.open_account": async (request) => {
      try {
        return await openAccountRpc(db, logger, request);
      } catch (error) {
        throw asServiceUnavailable(error, logger, "billing.open_account");
      }
    },

    "billing.list_ledger": async (request) => {
      try {
        return await listLedgerRpc(db, request);
      } catch (error) {
        throw asServiceUnavailable(error, logger, "billing.list_ledger");
      }
    },

    "billing.create_checkout": async (request) => {
      try {
        return await createCheckout(db, paymentProvider, logger, request);
      } catch (error) {
        throw asServiceUnavailable(error, logger, "billing.create_checkout");
      }
    },
  };
}
