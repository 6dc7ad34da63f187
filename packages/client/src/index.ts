export { AccountApi } from "./account.ts";
export { CompaniesApi } from "./companies.ts";
export { DormantClient, type DormantClientOptions } from "./client.ts";
export { DocumentsApi, type DownloadedDocument } from "./documents.ts";
export { DormantApiError, UNEXPECTED_RESPONSE } from "./errors.ts";
export { FilingsApi, type SubmitOptions } from "./filings.ts";
export { DEFAULT_RETRY_POLICY, RETRYABLE_STATUSES, type RetryPolicy } from "./retry.ts";
export type * from "./types.ts";
export {
  FINAL_STATUSES,
  type FilingProgress,
  FilingWaitTimeoutError,
  recommendedPollInterval,
  type WaitForFinalOptions,
} from "./wait-for-final.ts";
