import type { GatewayAccount } from "@dormant/contracts";
import type { GatewayDb } from "../db/client.ts";
import { accountNotFound } from "./not-found.ts";

/** The columns an account's view needs. */
export const ACCOUNT_VIEW_SELECT = { id: true, name: true, apiAccessEnabled: true, createdAt: true } as const;

export interface AccountViewRow {
  id: string;
  name: string;
  apiAccessEnabled: boolean;
  createdAt: Date;
}

/** An account as gateway.rpc answers it: no limits, balances or keys. */
export function toGatewayAccount(row: AccountViewRow): GatewayAccount {
  return { account_id: row.id, name: row.name, api_access_enabled: row.apiAccessEnabled, created_at: row.createdAt.toISOString() };
}

/** gateway.get_account: the account, or NOT_FOUND. */
export async function getGatewayAccount(db: GatewayDb, accountId: string): Promise<GatewayAccount> {
  const row = await db.account.findUnique({ where: { id: accountId }, select: ACCOUNT_VIEW_SELECT });
  if (!row) throw accountNotFound();
  return toGatewayAccount(row);
}
