import type { GatewayAccount } from "@dormant/contracts";
import type { GatewayDb } from "../db/client.ts";
import { ACCOUNT_VIEW_SELECT, toGatewayAccount } from "./account-view.ts";
import { accountNotFound } from "./not-found.ts";

/** gateway.enable_api_access: idempotent (an account that has it answers as it is); NOT_FOUND for an unknown account. */
export async function enableApiAccess(db: GatewayDb, accountId: string): Promise<GatewayAccount> {
  const { count } = await db.account.updateMany({ where: { id: accountId }, data: { apiAccessEnabled: true } });
  if (count === 0) throw accountNotFound();
  return toGatewayAccount(await db.account.findUniqueOrThrow({ where: { id: accountId }, select: ACCOUNT_VIEW_SELECT }));
}
