import { Ct600Credentials, openSealedCredentials, submissionBinding, type SealedSecret, type SealingKey } from "@dormant/contracts";

/** The Government Gateway credentials sealed for one part of one filing (refusals: openSealedCredentials). */
export function openTaxCredentials(
  sealed: SealedSecret,
  keys: readonly SealingKey[],
  filingId: string,
  partNumber: number,
): Ct600Credentials {
  return openSealedCredentials(sealed, keys, submissionBinding(filingId, partNumber), Ct600Credentials);
}
