import { AccountsCredentials, openSealedCredentials, submissionBinding, type SealedSecret, type SealingKey } from "@dormant/contracts";

/** Accounts are one submission: their credentials are sealed for part 1 of the filing. */
export const ACCOUNTS_PART = 1;

/** The company authentication code sealed for a filing's accounts (refusals: openSealedCredentials). */
export function openAccountsCredentials(sealed: SealedSecret, keys: readonly SealingKey[], filingId: string): AccountsCredentials {
  return openSealedCredentials(sealed, keys, submissionBinding(filingId, ACCOUNTS_PART), AccountsCredentials);
}
