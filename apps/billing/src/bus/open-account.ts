import type { OpenAccountRequest, OpenAccountResponse } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { BillingDb } from "../db/client.ts";
import { openAccount } from "../ledger/accounts.ts";

/**
 * `billing.open_account`: the billing side of an account the gateway created, through the same
 * ledger code as `admin open-account` (ledger/accounts.ts). Idempotent: an account already open
 * answers `created: false` and nothing changes; the opening balance is credited once, and a
 * different opening balance for an open account is refused (IDEMPOTENCY_KEY_CONFLICT).
 */
export async function openAccountRpc(db: BillingDb, logger: Logger, request: OpenAccountRequest): Promise<OpenAccountResponse> {
  const opened = await openAccount(db, {
    accountId: request.account_id,
    openingBalancePence: BigInt(request.opening_balance_pence),
    name: request.name,
  });
  logger.info(
    { account_id: opened.accountId, created: opened.created, opening_balance_pence: request.opening_balance_pence },
    opened.created ? "account opened" : "account already open",
  );
  return { account_id: opened.accountId, created: opened.created };
}
