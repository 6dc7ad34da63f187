import { defineTopology } from "./topology/plan.ts";

/**
 * THE topology of the platform: every exchange and queue any service uses is written here and
 * nowhere else. Every service declares it at connect and again after each recovery
 * (declareTopology); `pnpm export-definitions` writes it to infra/rabbitmq/definitions.json.
 * The README's topology table describes the same entries for people.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Retry tiers of event/outcome queues: 1 s, 5 s, 30 s, 2 min, 10 min. */
const RETRY_TIERS = [1 * SECOND, 5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE];

/**
 * Poll queues also carry scheduled polls: the authority says when to come back (1 s in the
 * simulator, seconds to minutes for real), a poll is parked in the smallest tier that is at
 * least that long, with a per-message expiration of exactly the requested delay.
 */
const POLL_TIERS = [1 * SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 30 * SECOND, 1 * MINUTE, 5 * MINUTE, 15 * MINUTE];

export const systemTopology = defineTopology({
  exchanges: [
    {
      name: "filing.events",
      type: "topic",
      purpose: "Facts about filings (filing.accepted, filing.rejected, filing.errored) for whoever reacts to them",
    },
  ],
  workQueues: [
    {
      name: "tax.poll",
      purpose: "tax-submitter: poll the tax authority for the outcome of a submitted CT600 part",
      waitTiersMs: POLL_TIERS,
      deliveryLimit: 10,
    },
    {
      name: "registry.poll",
      purpose: "registry-submitter: poll the registry for the status of submitted accounts",
      waitTiersMs: POLL_TIERS,
      deliveryLimit: 10,
    },
    {
      name: "filing.outcomes",
      purpose: "filing: apply the outcome of a submission (accepted, rejected, error) reported by a submitter",
      waitTiersMs: RETRY_TIERS,
      deliveryLimit: 10,
    },
    {
      name: "filing.documents",
      purpose: "filing: render the PDFs of an accepted filing (CT600 return, dormant accounts) and store them",
      waitTiersMs: RETRY_TIERS,
      deliveryLimit: 10,
    },
    {
      name: "billing.events",
      purpose: "billing: capture the fee hold when a filing is accepted, release it when rejected or errored",
      waitTiersMs: RETRY_TIERS,
      deliveryLimit: 10,
    },
  ],
  rpcQueues: [
    { name: "filing.rpc", purpose: "filing: submit a filing, read filings and documents (called by the gateway); list final filings (billing's reconcile)", maxRequestAgeMs: 30 * SECOND },
    { name: "billing.rpc", purpose: "billing: fee holds, balances, top-ups (called by filing and the gateway)", maxRequestAgeMs: 30 * SECOND },
    { name: "tax.submit", purpose: "tax-submitter: submit one CT600 part to the tax authority (called by filing)", maxRequestAgeMs: MINUTE },
    { name: "registry.submit", purpose: "registry-submitter: submit dormant accounts to the registry (called by filing)", maxRequestAgeMs: MINUTE },
  ],
  bindings: [
    { exchange: "filing.events", routingKey: "filing.accepted", queue: "billing.events" },
    { exchange: "filing.events", routingKey: "filing.rejected", queue: "billing.events" },
    { exchange: "filing.events", routingKey: "filing.errored", queue: "billing.events" },
    { exchange: "filing.events", routingKey: "filing.accepted", queue: "filing.documents" },
  ],
});
