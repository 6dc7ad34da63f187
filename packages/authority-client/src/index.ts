// @dormant/authority-client: what the submitter workers share for talking to unreliable
// authorities: breakers whose timeouts abort the request, XML over HTTP with classified failures,
// at-most-once submission records and completion records in Redis, poll timing, the keys that
// open sealed credentials, and the workers' common start-up and graceful stop. See README.md.
export { AuthorityUnavailableError, AuthorityRequestError, AuthorityCallAbortedError, isAuthorityFailure } from "./errors.ts";
export type { UnavailableReason } from "./errors.ts";
export { postXml } from "./post-xml.ts";
export { readAuthorityAnswer } from "./authority-gateway.ts";
export type { AuthorityGatewayOptions, ClassifiedAnswer, ReadAnswerOptions } from "./authority-gateway.ts";
export { breakerEnvShape, breakerSettingsFromEnv } from "./breaker-settings.ts";
export { submitterWorkerEnvShape } from "./worker-env.ts";
export { submitterConfigFromEnv } from "./submitter-config.ts";
export type { SubmitterConfig, SubmitterEnv } from "./submitter-config.ts";
export type { BreakerSettings } from "./breaker-settings.ts";
export { createBreakerMetrics, BREAKER_STATE_VALUE } from "./breaker-metrics.ts";
export type { BreakerMetrics } from "./breaker-metrics.ts";
export { AuthorityBreaker } from "./authority-breaker.ts";
export {
  AuthorityLimiter,
  authorityLimitsEnvShape,
  authorityLimitsFromEnv,
  createAuthorityLimitMetrics,
  RATE_WINDOW_MS,
} from "./authority-limits.ts";
export type {
  AcquireOptions,
  AuthorityLease,
  AuthorityLimiterOptions,
  AuthorityLimitMetrics,
  AuthorityLimitSettings,
} from "./authority-limits.ts";
export { SharedBreakerBoard } from "./shared-breakers.ts";
export type { SharedBreakerBoardOptions, SharedBreakerPeer } from "./shared-breakers.ts";
export type { AuthorityBreakerOptions, AuthorityWork, BreakerState, RunOptions } from "./authority-breaker.ts";
export { SubmissionLedger } from "./submission-ledger.ts";
export type { SubmissionRecord, ClaimResult, SubmissionLedgerOptions } from "./submission-ledger.ts";
export { submitOnce, mayHaveReachedAuthority, SubmissionBlockedError } from "./submit-once.ts";
export type { SubmitOnceOptions, SubmitOnceResult } from "./submit-once.ts";
export { askAuthority, isAbandoned, resolveSubmission, settledAt } from "./resolve-in-doubt.ts";
export type {
  AuthorityLookup,
  DoubtOutcome,
  DoubtfulRecord,
  InDoubtTiming,
  Resolution,
  ResolveSubmissionOptions,
} from "./resolve-in-doubt.ts";
export { submitFailure } from "./submit-failure.ts";
export { SubmissionRpc } from "./submission-rpc.ts";
export type { FirstPoll, ResolutionAnswer, SubmissionCall, SubmissionRpcOptions, SubmitCall } from "./submission-rpc.ts";
export type { SubmitFailureKind, SubmitFailureOptions } from "./submit-failure.ts";
export { CompletionLedger } from "./completion-ledger.ts";
export type { CompletionLedgerOptions } from "./completion-ledger.ts";
export {
  giveUpAt,
  nextPoll,
  afterTransientPollFailure,
  breakerGraceMs,
  pollTimeoutMs,
  backoffIntervalSeconds,
  type PollBackoff,
} from "./poll-timing.ts";
export type { NextPoll, AfterTransientFailure, NotSent } from "./poll-timing.ts";
export { sealingKeysEnvShape, resolveSealingKeys } from "./sealing-keys.ts";
export { lazyChildLogger } from "./lazy-child-logger.ts";
export { startSubmitterWorker } from "./submitter-worker.ts";
export type {
  SubmitterBus,
  SubmitterWorker,
  SubmitterWorkerConfig,
  SubmitterWorkerHandlers,
  SubmitterWorkerOptions,
  SubmitterWorkerParts,
  SubmitterPollingParts,
  SubmitterSubmittingParts,
} from "./submitter-worker.ts";
export { runSubmitterWorker } from "./run-submitter-worker.ts";
export type { StartedLine, SubmitterProcess } from "./run-submitter-worker.ts";
export { PollUntilFinal } from "./poll-until-final.ts";
export type { FinalOutcome, PollCommand, PollRound, PollUntilFinalOptions } from "./poll-until-final.ts";
