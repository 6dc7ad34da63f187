import { BILLING_RPC_CATALOG, PLATFORM_MESSAGE_CATALOG } from "@dormant/contracts";

/** The events billing consumes on `billing.events` (the filing service publishes them). */
export const BILLING_EVENT_CATALOG = {
  "filing.accepted": PLATFORM_MESSAGE_CATALOG["filing.accepted"],
  "filing.rejected": PLATFORM_MESSAGE_CATALOG["filing.rejected"],
  "filing.errored": PLATFORM_MESSAGE_CATALOG["filing.errored"],
} as const;

/** The RPCs billing serves on `billing.rpc`. */
export { BILLING_RPC_CATALOG };

/** Billing's queue of filing events (named in @dormant/contracts with the platform topology). */
export { BILLING_EVENTS_QUEUE } from "@dormant/contracts";
