import { AppError } from "@dormant/contracts";

/** An account id the gateway does not know. */
export function accountNotFound(): AppError {
  return new AppError("NOT_FOUND", "No account with that id");
}

/** A key id unknown, or of another account: the same answer, so a caller learns nothing of others' keys. */
export function keyNotFound(): AppError {
  return new AppError("NOT_FOUND", "No API key with that id on this account");
}
