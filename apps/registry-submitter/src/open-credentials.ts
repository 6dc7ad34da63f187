import { AccountsCredentials, AppError, openSealedSecret, submissionBinding, type SealedSecret, type SealingKey } from "@dormant/contracts";

/** Accounts are one submission: their credentials are sealed for part 1 of the filing. */
export const ACCOUNTS_PART = 1;

/**
 * Opens the company authentication code sealed for a filing's accounts. A value that does not
 * open (wrong key, altered, bound to another filing) or is not accounts credentials is refused
 * without saying anything about its content.
 */
export function openAccountsCredentials(sealed: SealedSecret, keys: readonly SealingKey[], filingId: string): AccountsCredentials {
  let value: unknown;
  try {
    value = openSealedSecret(sealed, keys, submissionBinding(filingId, ACCOUNTS_PART));
  } catch {
    throw new AppError("INTERNAL_ERROR", "the sealed credentials could not be opened for this filing", { retryable: false });
  }
  const parsed = AccountsCredentials.safeParse(value);
  if (!parsed.success) throw new AppError("INTERNAL_ERROR", "the sealed credentials are not a company authentication code", { retryable: false });
  return parsed.data;
}
