import { defineRpcCatalog, type Bus } from "@dormant/bus";
import {
  BILLING_RPC_CATALOG,
  FILING_ACCOUNT_RPC_CATALOG,
  FILING_RECONCILE_RPC_CATALOG,
  FILING_RPC_CATALOG,
  PLATFORM_MESSAGE_CATALOG,
  SUBMISSION_RPC_CATALOG,
} from "@dormant/contracts";

/**
 * What the filing service says on the bus: it serves the filing RPCs (filing.rpc: the gateway's,
 * the account dashboard's account-wide reads, and filing.list_final for billing's reconcile), calls the
 * submitters (tax.submit, tax.check, registry.submit) and billing (billing.rpc), consumes the submitters'
 * outcomes (filing.outcomes) and publishes filing events (filing.events) through its outbox.
 */
export const FILING_SERVICE_RPC = defineRpcCatalog({
  ...FILING_RPC_CATALOG,
  ...FILING_ACCOUNT_RPC_CATALOG,
  ...FILING_RECONCILE_RPC_CATALOG,
  ...SUBMISSION_RPC_CATALOG,
  ...BILLING_RPC_CATALOG,
});
export const FILING_SERVICE_MESSAGES = PLATFORM_MESSAGE_CATALOG;

export type FilingBus = Bus<typeof FILING_SERVICE_MESSAGES, typeof FILING_SERVICE_RPC>;

/**
 * The events the filing service publishes: one per filing when it reaches a final status, and
 * `filing.documents_ready` once an accepted filing's PDFs are all stored.
 */
export const FILING_EVENT_TYPES = ["filing.accepted", "filing.rejected", "filing.errored", "filing.documents_ready"] as const;
export type FilingEventType = (typeof FILING_EVENT_TYPES)[number];
