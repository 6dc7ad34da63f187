import { type RpcCallingBus, rpcClient } from "@dormant/bus";
import { busErrorAsUnavailable } from "../bus/public-bus-error.ts";
import { BILLING_RPC_CATALOG, type CreateGatewayAccountRequest, type GatewayAccount } from "@dormant/contracts";
import type { GatewayDb } from "../db/client.ts";
import { randomBase62 } from "../keys/random.ts";
import { ACCOUNT_VIEW_SELECT, type AccountViewRow, toGatewayAccount } from "./account-view.ts";

/** What creating an account needs of the bus: billing's `billing.open_account`. */
export type OpenAccountBus = RpcCallingBus<typeof BILLING_RPC_CATALOG>;

export interface CreateAccountDeps {
  db: GatewayDb;
  bus: OpenAccountBus;
}

/**
 * gateway.create_account: the account (no keys, API access off, no opening balance here), then
 * its billing side with a zero balance (`billing.open_account`), then the answer. Idempotent per
 * `request_id`: the row is found by it, and billing's call is made again on every retry (it is
 * idempotent too), so a sign-up whose billing call failed is finished by the next retry with the
 * same id instead of leaving a half account. A second call with the same id answers the account
 * the first made, whatever name it carries.
 */
export async function createGatewayAccount(deps: CreateAccountDeps, request: CreateGatewayAccountRequest): Promise<GatewayAccount> {
  const account = await findOrInsertAccount(deps.db, request);
  await openBillingSide(deps.bus, account);
  return toGatewayAccount(account);
}

async function findOrInsertAccount(db: GatewayDb, request: CreateGatewayAccountRequest): Promise<AccountViewRow> {
  // ON CONFLICT: two concurrent calls with one request id make one account, and both answer it.
  await db.$executeRaw`
    INSERT INTO accounts (id, name, opening_balance_pence, api_access_enabled, creation_request_id)
    VALUES (${`acc_${randomBase62(16)}`}, ${request.name}, 0, false, ${request.request_id})
    ON CONFLICT (creation_request_id) DO NOTHING`;
  return db.account.findUniqueOrThrow({ where: { creationRequestId: request.request_id }, select: ACCOUNT_VIEW_SELECT });
}

async function openBillingSide(bus: OpenAccountBus, account: AccountViewRow): Promise<void> {
  const call = rpcClient(
    bus,
    BILLING_RPC_CATALOG,
    busErrorAsUnavailable("Billing is temporarily unavailable; retry with the same request_id", 5),
  );
  await call("billing.open_account", { account_id: account.id, name: account.name, opening_balance_pence: 0 });
}
