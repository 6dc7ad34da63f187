import { AppError, Ct600Credentials, openSealedSecret, submissionBinding, type SealedSecret, type SealingKey } from "@dormant/contracts";

/**
 * Opens the Government Gateway credentials sealed for one part of one filing. A value that does
 * not open (wrong key, altered, bound to another part) or is not a credentials object is refused
 * without saying anything about its content.
 */
export function openTaxCredentials(sealed: SealedSecret, keys: readonly SealingKey[], filingId: string, partNumber: number): Ct600Credentials {
  let value: unknown;
  try {
    value = openSealedSecret(sealed, keys, submissionBinding(filingId, partNumber));
  } catch {
    throw new AppError("INTERNAL_ERROR", "the sealed credentials could not be opened for this part", { retryable: false });
  }
  const parsed = Ct600Credentials.safeParse(value);
  if (!parsed.success) throw new AppError("INTERNAL_ERROR", "the sealed credentials are not Government Gateway credentials", { retryable: false });
  return parsed.data;
}
