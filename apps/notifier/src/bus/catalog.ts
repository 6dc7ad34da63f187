import { NOTIFIER_RPC_CATALOG, PLATFORM_MESSAGE_CATALOG } from "@dormant/contracts";

/**
 * The messages the notifier takes and sends: on `notifier.events`, the filing events (bound from
 * `filing.events`) and the gateway's sandbox events; on `notifier.deliveries`, its own deliver
 * commands (each attempt and each retry of one event to one endpoint), and on
 * `notifier.test_deliveries` the test-mode ones.
 */
export const NOTIFIER_MESSAGE_CATALOG = {
  "filing.accepted": PLATFORM_MESSAGE_CATALOG["filing.accepted"],
  "filing.rejected": PLATFORM_MESSAGE_CATALOG["filing.rejected"],
  "filing.errored": PLATFORM_MESSAGE_CATALOG["filing.errored"],
  "filing.documents_ready": PLATFORM_MESSAGE_CATALOG["filing.documents_ready"],
  "notifier.sandbox_event": PLATFORM_MESSAGE_CATALOG["notifier.sandbox_event"],
  "notifier.deliver": PLATFORM_MESSAGE_CATALOG["notifier.deliver"],
  "notifier.deliver_test": PLATFORM_MESSAGE_CATALOG["notifier.deliver_test"],
} as const;

export { NOTIFIER_RPC_CATALOG };
export { NOTIFIER_DELIVERIES_QUEUE, NOTIFIER_EVENTS_QUEUE, NOTIFIER_RPC_QUEUE, NOTIFIER_TEST_DELIVERIES_QUEUE } from "@dormant/contracts";
