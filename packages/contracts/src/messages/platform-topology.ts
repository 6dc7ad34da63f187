import { BILLING_RPC_QUEUE } from "./billing-rpc.ts";
import { BILLING_EVENTS_QUEUE, FILING_DOCUMENTS_QUEUE, PLATFORM_MESSAGE_CATALOG } from "./catalogs.ts";
import { FILING_EVENTS_EXCHANGE } from "./filing-events.ts";
import { FILING_RPC_QUEUE } from "./filing-rpc.ts";
import { GATEWAY_RPC_QUEUE } from "./gateway-rpc.ts";
import { NOTIFIER_DELIVERIES_QUEUE, NOTIFIER_EVENTS_QUEUE, NOTIFIER_RPC_QUEUE, NOTIFIER_TEST_DELIVERIES_QUEUE } from "./notifier.ts";
import {
  FILING_OUTCOMES_QUEUE,
  REGISTRY_POLL_QUEUE,
  REGISTRY_SUBMIT_QUEUE,
  TAX_CHECK_QUEUE,
  TAX_POLL_QUEUE,
  TAX_SUBMIT_QUEUE,
} from "./submissions.ts";
import { EVENT_WAIT_TIERS_MS, POLL_WAIT_TIERS_MS, WEBHOOK_WAIT_TIERS_MS } from "./wait-tiers.ts";

/**
 * THE bus topology of the platform, as data in the shape of packages/bus's `Topology`: every
 * exchange and queue a service uses, and which service does what with them (`services`: each
 * one's RabbitMQ user and permissions are derived from its entry, and the bus holds a service
 * connecting under that name to it). Every service passes it to `connectBus`, which declares it at
 * connect and again after each recovery; `pnpm --filter @dormant/bus export-definitions` writes
 * it to infra/rabbitmq/definitions.json, whose README describes the same entries for people.
 *
 * Names are the constants the catalogs use; the bindings are derived from the catalog's event
 * routes, so a consumer added to an event is bound without a second edit.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** The broker-side poison guard of every work queue (`x-delivery-limit`). */
const DELIVERY_LIMIT = 10;

interface EventRouted {
  readonly route:
    | { readonly kind: "command" }
    | { readonly kind: "event"; readonly exchange: string; readonly routingKey: string; readonly consumers: readonly string[] };
}

/**
 * One binding per (event, consuming queue), grouped by queue in the order the queues are first
 * named as consumers, each queue's events in catalog order.
 */
function eventBindings(catalog: Readonly<Record<string, EventRouted>>): { exchange: string; routingKey: string; queue: string }[] {
  const byQueue = new Map<string, { exchange: string; routingKey: string; queue: string }[]>();
  for (const { route } of Object.values(catalog)) {
    if (route.kind !== "event") continue;
    for (const queue of route.consumers) {
      const bindings = byQueue.get(queue) ?? [];
      bindings.push({ exchange: route.exchange, routingKey: route.routingKey, queue });
      byQueue.set(queue, bindings);
    }
  }
  return [...byQueue.values()].flat();
}

type PlatformMessageType = keyof typeof PLATFORM_MESSAGE_CATALOG;

/** Where messages of these types go: the exchange of an event, the work queue of a command. */
function destinationsOf(types: readonly PlatformMessageType[]): string[] {
  const destinations = types.map((type) => {
    const { route } = PLATFORM_MESSAGE_CATALOG[type];
    return route.kind === "event" ? route.exchange : route.queue;
  });
  return [...new Set(destinations)];
}

export const PLATFORM_TOPOLOGY = {
  exchanges: [
    {
      name: FILING_EVENTS_EXCHANGE,
      type: "topic",
      purpose: "Facts about filings (filing.accepted, filing.rejected, filing.errored, filing.documents_ready) for whoever reacts to them",
    },
  ],
  workQueues: [
    {
      name: TAX_POLL_QUEUE,
      purpose: "tax-submitter: poll the tax authority for the outcome of a submitted CT600 part",
      waitTiersMs: POLL_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
    {
      name: REGISTRY_POLL_QUEUE,
      purpose: "registry-submitter: poll the registry for the status of submitted accounts",
      waitTiersMs: POLL_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
    {
      name: FILING_OUTCOMES_QUEUE,
      purpose: "filing: apply the outcome of a submission (accepted, rejected, error) reported by a submitter",
      waitTiersMs: EVENT_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
    {
      name: FILING_DOCUMENTS_QUEUE,
      purpose: "filing: render the PDFs of an accepted filing (CT600 return, dormant accounts) and store them",
      waitTiersMs: EVENT_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
    {
      name: BILLING_EVENTS_QUEUE,
      purpose: "billing: capture the fee hold when a filing is accepted, release it when rejected or errored",
      waitTiersMs: EVENT_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
    {
      name: NOTIFIER_EVENTS_QUEUE,
      purpose: "notifier: turn filing events (and the gateway's sandbox events) into webhook deliveries to the account's endpoints",
      waitTiersMs: EVENT_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
    {
      name: NOTIFIER_DELIVERIES_QUEUE,
      purpose: "notifier: one live-mode webhook delivery attempt (an event to an endpoint); retries are delayed commands on this queue",
      waitTiersMs: WEBHOOK_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
    {
      name: NOTIFIER_TEST_DELIVERIES_QUEUE,
      purpose: "notifier: one test-mode webhook delivery attempt (sandbox events, Send test), apart so they never delay live ones",
      waitTiersMs: WEBHOOK_WAIT_TIERS_MS,
      deliveryLimit: DELIVERY_LIMIT,
    },
  ],
  rpcQueues: [
    {
      name: FILING_RPC_QUEUE,
      purpose: "filing: submit a filing, read filings and documents (called by the gateway); list final filings (billing's reconcile)",
      maxRequestAgeMs: 30 * SECOND,
    },
    {
      name: BILLING_RPC_QUEUE,
      purpose: "billing: fee holds, balances, top-ups (called by filing and the gateway)",
      maxRequestAgeMs: 30 * SECOND,
    },
    {
      name: TAX_SUBMIT_QUEUE,
      purpose: "tax-submitter: submit one CT600 part to the tax authority (called by filing)",
      maxRequestAgeMs: MINUTE,
    },
    {
      name: TAX_CHECK_QUEUE,
      purpose:
        "tax-submitter: build a CT600 part and run the tax authority's schema and rules on it, never sending (validation; called by filing)",
      maxRequestAgeMs: MINUTE,
    },
    {
      name: REGISTRY_SUBMIT_QUEUE,
      purpose: "registry-submitter: submit dormant accounts to the registry (called by filing)",
      maxRequestAgeMs: MINUTE,
    },
    {
      name: NOTIFIER_RPC_QUEUE,
      purpose: "notifier: webhook endpoints and their deliveries (called by the gateway and the admin CLI)",
      maxRequestAgeMs: 30 * SECOND,
    },
    {
      name: GATEWAY_RPC_QUEUE,
      purpose: "gateway: accounts and API keys (called by the account dashboard)",
      maxRequestAgeMs: 30 * SECOND,
    },
  ],
  bindings: eventBindings(PLATFORM_MESSAGE_CATALOG),
  services: [
    {
      service: "gateway",
      purpose:
        "the public API: calls the filing service, billing and the notifier; serves the dashboard's account RPCs; sends sandbox webhook events",
      consumes: [],
      serves: [GATEWAY_RPC_QUEUE],
      publishesTo: destinationsOf(["notifier.sandbox_event"]),
      calls: [FILING_RPC_QUEUE, BILLING_RPC_QUEUE, NOTIFIER_RPC_QUEUE],
    },
    {
      service: "filing",
      purpose: "the filing lifecycle: calls the submitters and billing, applies outcomes, renders documents, publishes filing events",
      consumes: [FILING_OUTCOMES_QUEUE, FILING_DOCUMENTS_QUEUE],
      serves: [FILING_RPC_QUEUE],
      publishesTo: destinationsOf(["filing.accepted", "filing.rejected", "filing.errored", "filing.documents_ready"]),
      calls: [TAX_SUBMIT_QUEUE, TAX_CHECK_QUEUE, REGISTRY_SUBMIT_QUEUE, BILLING_RPC_QUEUE],
    },
    {
      service: "billing",
      purpose: "fee holds and the ledger: serves billing RPCs, captures or releases holds on filing events",
      consumes: [BILLING_EVENTS_QUEUE],
      serves: [BILLING_RPC_QUEUE],
      publishesTo: [],
      calls: [],
    },
    {
      service: "notifier",
      purpose: "webhooks: turns events into deliveries and delivers them (retries are its own delayed commands)",
      consumes: [NOTIFIER_EVENTS_QUEUE, NOTIFIER_DELIVERIES_QUEUE, NOTIFIER_TEST_DELIVERIES_QUEUE],
      serves: [NOTIFIER_RPC_QUEUE],
      publishesTo: destinationsOf(["notifier.deliver", "notifier.deliver_test"]),
      calls: [],
    },
    {
      service: "tax-submitter",
      purpose: "submits CT600 parts to the tax authority and polls for their outcome, reported to the filing service",
      consumes: [TAX_POLL_QUEUE],
      serves: [TAX_SUBMIT_QUEUE, TAX_CHECK_QUEUE],
      publishesTo: destinationsOf(["tax.poll_part", "tax.part_polling", "tax.part_outcome"]),
      calls: [],
    },
    {
      service: "registry-submitter",
      purpose: "submits dormant accounts to the registry and polls their status, reported to the filing service",
      consumes: [REGISTRY_POLL_QUEUE],
      serves: [REGISTRY_SUBMIT_QUEUE],
      publishesTo: destinationsOf(["registry.poll_status", "registry.status", "registry.outcome"]),
      calls: [],
    },
    {
      service: "dashboard",
      purpose: "the agents' web dashboard: calls the gateway, the filing service, billing and the notifier",
      consumes: [],
      serves: [],
      publishesTo: [],
      calls: [GATEWAY_RPC_QUEUE, FILING_RPC_QUEUE, BILLING_RPC_QUEUE, NOTIFIER_RPC_QUEUE],
    },
    {
      service: "keda",
      purpose: "the autoscaler (infra/k8s/keda.yaml): reads the submit and poll queues' depth, which needs no permission beyond connecting",
      consumes: [],
      serves: [],
      publishesTo: [],
      calls: [],
    },
  ],
} as const;
