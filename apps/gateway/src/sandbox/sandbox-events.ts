import { createHash } from "node:crypto";
import type { Bus } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, type SandboxOutcome, type SandboxWebhookEvent, type WebhookEventType } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { SandboxFilingRef } from "./filing-id.ts";
import type { TestEndpointLookup } from "./test-endpoints.ts";

/** The one message the gateway publishes: a test key's sandbox outcome, for the notifier. */
export const SANDBOX_EVENT_MESSAGES = {
  "notifier.sandbox_event": PLATFORM_MESSAGE_CATALOG["notifier.sandbox_event"],
} as const;

/** What the sandbox events need of the bus: confirmed publishing of `notifier.sandbox_event`. */
export type SandboxEventBus = Pick<Bus<typeof SANDBOX_EVENT_MESSAGES, Record<never, never>>, "publish">;

/**
 * Hands an account's sandbox events to the notifier, in order, built by `events` only when they
 * are published; never rejects (the sandbox never fails a submit for its webhooks).
 */
export type SandboxEventPublisher = (accountId: string, events: () => SandboxWebhookEvent[]) => Promise<void>;

/** The sandbox's final status as the event type an endpoint subscribes to. */
const EVENT_TYPE: Record<SandboxOutcome, WebhookEventType> = {
  accepted: "filing.accepted",
  rejected: "filing.rejected",
  error: "filing.errored",
};

export function sandboxEventType(outcome: SandboxOutcome): WebhookEventType {
  return EVENT_TYPE[outcome];
}

/**
 * `evt_test_` + the first 32 hex digits of SHA-256 over the sandbox filing id and the event type:
 * the same submit (same Idempotency-Key and body, so the same filing id) always gives the same
 * event id, which is the `webhook-id` receivers dedupe on. The filing id is already keyed by the
 * server secret, so a plain hash reveals nothing of the request.
 */
export function sandboxEventId(ref: SandboxFilingRef, type: WebhookEventType): string {
  const hex = createHash("sha256").update(`sandbox-webhook-event\n${ref.filingId}\n${type}`, "utf8").digest("hex").slice(0, 32);
  return `evt_test_${hex}`;
}

/**
 * Publishes the sandbox events of an account that may have test webhook endpoints (`endpoints`;
 * nothing is published for the others) with the broker's confirms, waiting at most `timeoutMs` for
 * them: a failed or slow publish is a warning in the log and the submit still answers 202 (a
 * publish that times out here may still be confirmed later).
 */
export function sandboxEventPublisher({
  bus,
  endpoints,
  logger,
  timeoutMs = 3_000,
}: {
  bus: SandboxEventBus;
  endpoints: TestEndpointLookup;
  logger: Logger;
  timeoutMs?: number;
}): SandboxEventPublisher {
  return async (accountId, build) => {
    if (!(await endpoints.mayHaveTestEndpoints(accountId))) return;
    // Published one after the other on one channel (the queue keeps their order); the confirms are awaited together.
    const settled = build().map((event) => {
      const fields = { event_id: event.event.id, event_type: event.event.type };
      // Settles, never rejects: a publish that fails after the wait below is still logged.
      return bus.publish("notifier.sandbox_event", event).catch((error: unknown) => {
        logger.warn({ ...fields, err: error }, "sandbox webhook event not published");
      });
    });
    const published = Promise.all(settled);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
      timer.unref();
    });
    try {
      if ((await Promise.race([published, timedOut])) === "timeout") {
        logger.warn({ account_id: accountId, timeout_ms: timeoutMs }, "sandbox webhook events not confirmed in time");
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
