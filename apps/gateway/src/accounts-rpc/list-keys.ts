import type { ApiKeysList } from "@dormant/contracts";
import type { GatewayDb } from "../db/client.ts";
import { API_KEY_SUMMARY_SELECT, toApiKeySummary } from "../keys/summary.ts";
import { accountNotFound } from "./not-found.ts";

/** gateway.list_keys: every key of the account, revoked ones too, oldest first; never a secret or hash. */
export async function listApiKeys(db: GatewayDb, accountId: string): Promise<ApiKeysList> {
  const account = await db.account.findUnique({
    where: { id: accountId },
    select: { apiKeys: { orderBy: [{ createdAt: "asc" }, { keyId: "asc" }], select: API_KEY_SUMMARY_SELECT } },
  });
  if (!account) throw accountNotFound();
  return { keys: account.apiKeys.map(toApiKeySummary) };
}
