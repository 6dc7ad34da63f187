import { classifyWithTable, type GovTalkErrorClassification, type GovTalkErrorKind } from "../envelope/classify.ts";
import type { GovTalkError } from "../envelope/govtalk-error.ts";

/** Registry gateway error numbers known to mean something specific for a worker. */
export const REGISTRY_ERROR_KINDS: Readonly<Record<number, GovTalkErrorKind>> = {
  502: "authentication", // Authorisation Failure: presenter credentials (or company auth code) refused
};

/**
 * Classifies the `GovTalkErrors` of a registry gateway answer: 502 is an authentication failure;
 * other numbers by Type (recoverable = transient and retryable, business = business, else protocol).
 */
export function classifyRegistryErrors(errors: readonly GovTalkError[]): GovTalkErrorClassification {
  return classifyWithTable(errors, REGISTRY_ERROR_KINDS);
}
