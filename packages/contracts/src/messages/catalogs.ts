import {
  BILLING_RPC_QUEUE,
  BalanceResponse,
  CheckoutSession,
  CreateCheckoutRequest,
  GetBalanceRequest,
  HoldFeeRequest,
  HoldFeeResponse,
  LedgerPage,
  ListLedgerRequest,
  OpenAccountRequest,
  OpenAccountResponse,
  ReleaseHoldRequest,
  ReleaseHoldResponse,
} from "./billing-rpc.ts";
import {
  ResolveRegistryAccountsRequest,
  ResolveRegistryAccountsResponse,
  ResolveTaxPartRequest,
  ResolveTaxPartResponse,
} from "./in-doubt.ts";
import { FILING_EVENTS_EXCHANGE, FilingAccepted, FilingDocumentsReady, FilingErrored, FilingRejected } from "./filing-events.ts";
import {
  DeliverWebhookCommand,
  NOTIFIER_DELIVERIES_QUEUE,
  NOTIFIER_EVENTS_QUEUE,
  NOTIFIER_TEST_DELIVERIES_QUEUE,
  SandboxWebhookEvent,
} from "./notifier.ts";
import {
  CheckTaxPartRequest,
  CheckTaxPartResponse,
  FILING_OUTCOMES_QUEUE,
  PollRegistryStatusCommand,
  PollTaxPartCommand,
  REGISTRY_POLL_QUEUE,
  REGISTRY_SUBMIT_QUEUE,
  RegistryOutcome,
  TAX_CHECK_QUEUE,
  RegistryStatusReport,
  SubmitRegistryAccountsRequest,
  SubmitRegistryAccountsResponse,
  SubmitTaxPartRequest,
  SubmitTaxPartResponse,
  TAX_POLL_QUEUE,
  TAX_SUBMIT_QUEUE,
  TaxPartOutcome,
  TaxPartPolling,
} from "./submissions.ts";
import { EVENT_WAIT_TIERS_MS, WEBHOOK_WAIT_TIERS_MS } from "./wait-tiers.ts";

/**
 * The platform's messages and RPCs in the shape of the bus's catalogs (packages/bus
 * `defineMessageCatalog` / `defineRpcCatalog`): type -> schema, route, retry policy, timeout.
 * Backoff values must be wait tiers of the consuming queue (platform-topology.ts); the bus
 * checks that at start.
 */
const SECOND = 1000;

/** The filing service's own queue of `filing.accepted` events: it renders the documents of accepted filings. */
export const FILING_DOCUMENTS_QUEUE = "filing.documents";
/** Billing's queue of filing events: it captures or releases the fee hold. */
export const BILLING_EVENTS_QUEUE = "billing.events";

/** Outcome and event consumers: every wait tier (1 s, 5 s, 30 s, 2 min, 10 min), then the parking lot. */
const EVENT_RETRY = { maxAttempts: 6, backoffMs: EVENT_WAIT_TIERS_MS, jitter: 0.2 } as const;
/** Poll commands whose poll failed for a transient reason (the deadline still applies). */
const POLL_RETRY = { maxAttempts: 8, backoffMs: [1 * SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 30 * SECOND], jitter: 0.2 } as const;

export const PLATFORM_MESSAGE_CATALOG = {
  "tax.poll_part": {
    schema: PollTaxPartCommand,
    schemaVersion: 1,
    route: { kind: "command", queue: TAX_POLL_QUEUE },
    retry: POLL_RETRY,
    timeoutMs: 30 * SECOND,
  },
  "registry.poll_status": {
    schema: PollRegistryStatusCommand,
    schemaVersion: 1,
    route: { kind: "command", queue: REGISTRY_POLL_QUEUE },
    retry: POLL_RETRY,
    timeoutMs: 30 * SECOND,
  },
  "tax.part_polling": {
    schema: TaxPartPolling,
    schemaVersion: 1,
    route: { kind: "command", queue: FILING_OUTCOMES_QUEUE },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "tax.part_outcome": {
    schema: TaxPartOutcome,
    schemaVersion: 1,
    route: { kind: "command", queue: FILING_OUTCOMES_QUEUE },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "registry.outcome": {
    schema: RegistryOutcome,
    schemaVersion: 1,
    route: { kind: "command", queue: FILING_OUTCOMES_QUEUE },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "registry.status": {
    schema: RegistryStatusReport,
    schemaVersion: 1,
    route: { kind: "command", queue: FILING_OUTCOMES_QUEUE },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "filing.accepted": {
    schema: FilingAccepted,
    schemaVersion: 1,
    // billing captures the fee; the filing service renders the filing's PDFs (its own queue); the
    // notifier pushes it to the account's webhook endpoints.
    route: {
      kind: "event",
      exchange: FILING_EVENTS_EXCHANGE,
      routingKey: "filing.accepted",
      consumers: [BILLING_EVENTS_QUEUE, FILING_DOCUMENTS_QUEUE, NOTIFIER_EVENTS_QUEUE],
    },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "filing.rejected": {
    schema: FilingRejected,
    schemaVersion: 1,
    route: {
      kind: "event",
      exchange: FILING_EVENTS_EXCHANGE,
      routingKey: "filing.rejected",
      consumers: [BILLING_EVENTS_QUEUE, NOTIFIER_EVENTS_QUEUE],
    },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "filing.errored": {
    schema: FilingErrored,
    schemaVersion: 1,
    route: {
      kind: "event",
      exchange: FILING_EVENTS_EXCHANGE,
      routingKey: "filing.errored",
      consumers: [BILLING_EVENTS_QUEUE, NOTIFIER_EVENTS_QUEUE],
    },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "filing.documents_ready": {
    schema: FilingDocumentsReady,
    schemaVersion: 1,
    route: { kind: "event", exchange: FILING_EVENTS_EXCHANGE, routingKey: "filing.documents_ready", consumers: [NOTIFIER_EVENTS_QUEUE] },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "notifier.sandbox_event": {
    schema: SandboxWebhookEvent,
    schemaVersion: 1,
    route: { kind: "command", queue: NOTIFIER_EVENTS_QUEUE },
    retry: EVENT_RETRY,
    timeoutMs: 10 * SECOND,
  },
  "notifier.deliver": {
    schema: DeliverWebhookCommand,
    schemaVersion: 1,
    route: { kind: "command", queue: NOTIFIER_DELIVERIES_QUEUE },
    // Only failures of the notifier's own (database down): an endpoint's failures are retried by
    // the notifier itself, on its delivery schedule, with a new command.
    retry: { maxAttempts: 6, backoffMs: WEBHOOK_WAIT_TIERS_MS.slice(0, 5), jitter: 0.2 },
    // An attempt waits at most 10 s for the endpoint, plus its database work.
    timeoutMs: 20 * SECOND,
  },
  "notifier.deliver_test": {
    schema: DeliverWebhookCommand,
    schemaVersion: 1,
    route: { kind: "command", queue: NOTIFIER_TEST_DELIVERIES_QUEUE },
    // Test mode (sandbox events, "Send test"): the same command on its own queue, so that test
    // deliveries never wait behind or hold the live ones' consumer.
    // Only failures of the notifier's own (database down): an endpoint's failures are retried by
    // the notifier itself, on its delivery schedule, with a new command.
    retry: { maxAttempts: 6, backoffMs: WEBHOOK_WAIT_TIERS_MS.slice(0, 5), jitter: 0.2 },
    // An attempt waits at most 10 s for the endpoint, plus its database work.
    timeoutMs: 20 * SECOND,
  },
} as const;

export const SUBMISSION_RPC_CATALOG = {
  "tax.submit_part": {
    queue: TAX_SUBMIT_QUEUE,
    request: SubmitTaxPartRequest,
    response: SubmitTaxPartResponse,
    schemaVersion: 1,
    timeoutMs: 25 * SECOND,
  },
  "registry.submit_accounts": {
    queue: REGISTRY_SUBMIT_QUEUE,
    request: SubmitRegistryAccountsRequest,
    response: SubmitRegistryAccountsResponse,
    schemaVersion: 1,
    timeoutMs: 25 * SECOND,
  },
  // Validation: builds and checks the part's message; never sends anything.
  "tax.check_part": {
    queue: TAX_CHECK_QUEUE,
    request: CheckTaxPartRequest,
    response: CheckTaxPartResponse,
    schemaVersion: 1,
    timeoutMs: 25 * SECOND,
  },
  // In-doubt submissions (in-doubt.ts): may ask the authority once (its list or status request).
  "tax.resolve_part": {
    queue: TAX_SUBMIT_QUEUE,
    request: ResolveTaxPartRequest,
    response: ResolveTaxPartResponse,
    schemaVersion: 1,
    timeoutMs: 25 * SECOND,
  },
  "registry.resolve_accounts": {
    queue: REGISTRY_SUBMIT_QUEUE,
    request: ResolveRegistryAccountsRequest,
    response: ResolveRegistryAccountsResponse,
    schemaVersion: 1,
    timeoutMs: 25 * SECOND,
  },
} as const;

export const BILLING_RPC_CATALOG = {
  "billing.hold": { queue: BILLING_RPC_QUEUE, request: HoldFeeRequest, response: HoldFeeResponse, schemaVersion: 1, timeoutMs: 5 * SECOND },
  "billing.release": {
    queue: BILLING_RPC_QUEUE,
    request: ReleaseHoldRequest,
    response: ReleaseHoldResponse,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  "billing.get_balance": {
    queue: BILLING_RPC_QUEUE,
    request: GetBalanceRequest,
    response: BalanceResponse,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  // The gateway, when the dashboard signs an agent up: idempotent, the opening balance credited once.
  "billing.open_account": {
    queue: BILLING_RPC_QUEUE,
    request: OpenAccountRequest,
    response: OpenAccountResponse,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  // The dashboard's ledger page (through the gateway): newest first, paged.
  "billing.list_ledger": {
    queue: BILLING_RPC_QUEUE,
    request: ListLedgerRequest,
    response: LedgerPage,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  // The dashboard's "Top up": billing asks the payment provider for a checkout (its HTTP call waits
  // at most PAYMENT_PROVIDER_TIMEOUT_MS, below this timeout).
  "billing.create_checkout": {
    queue: BILLING_RPC_QUEUE,
    request: CreateCheckoutRequest,
    response: CheckoutSession,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
} as const;
