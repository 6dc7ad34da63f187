import { AppError } from "@dormant/contracts";
import type { GatewayClient } from "../bus/gateway.ts";
import { GatewayNotFoundError } from "../bus/gateway.ts";
import type { DashboardDb } from "../db/client.ts";
import { createSetupToken } from "../db/setup-tokens.ts";
import { findUserByEmail, insertUser, normaliseEmail } from "../db/users.ts";

/** A refusal the operator can act on (exit code 1, the message on stderr). */
export class InviteError extends Error {
  override name = "InviteError";
}

export interface Invitation {
  account_id: string;
  email: string;
  user_id: string;
  /** The one-time link: `<public url>/setup-password?token=...`. */
  url: string;
  expires_at: string;
}

/**
 * A one-time password link for `email` on `accountId`: the account must exist at the gateway; the
 * user is created without a password (or, already a user of that account, gets a new link); a new
 * token (random 256 bits, only its hash stored) valid 24 hours and usable once.
 */
export async function inviteToDashboard(
  deps: { db: DashboardDb; gateway: Pick<GatewayClient, "getAccount">; publicUrl: string },
  accountId: string,
  rawEmail: string,
): Promise<Invitation> {
  const email = normaliseEmail(rawEmail);
  try {
    await deps.gateway.getAccount(accountId);
  } catch (error) {
    if (error instanceof GatewayNotFoundError) throw new InviteError(`no account ${accountId}`);
    if (error instanceof AppError) throw error;
    throw new InviteError(
      `the gateway did not answer (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : "unavailable"}); is it running?`,
    );
  }
  const user =
    (await findUserByEmail(deps.db, email)) ??
    (await insertUser(deps.db, { email, passwordHash: null, accountId })) ??
    (await findUserByEmail(deps.db, email));
  if (!user) throw new InviteError(`the user ${email} could not be created`);
  if (user.accountId !== accountId) throw new InviteError(`${email} already signs in to another account`);
  const { token, expiresAt } = await createSetupToken(deps.db, user.id);
  return {
    account_id: accountId,
    email,
    user_id: user.id,
    url: `${deps.publicUrl.replace(/\/+$/, "")}/setup-password?token=${token}`,
    expires_at: expiresAt.toISOString(),
  };
}
