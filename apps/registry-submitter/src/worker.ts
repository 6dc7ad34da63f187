import { startSubmitterWorker, type SubmitterWorker } from "@dormant/authority-client";
import { REGISTRY_POLL_QUEUE, REGISTRY_SUBMIT_QUEUE, SubmitRegistryAccountsResponse } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { RegistrySubmitterConfig } from "./env.ts";
import { StatusPoller } from "./poll-status.ts";
import { RegistryGateway } from "./registry-gateway.ts";
import { AccountsSubmitter } from "./submit-accounts.ts";

export const SERVICE = "registry-submitter";

/** The running worker: its bus, metrics, ops server and graceful `close()` (see startSubmitterWorker). */
export type RegistrySubmitter = SubmitterWorker;

/**
 * Starts the worker (startSubmitterWorker does the common part): Redis, the bus (serves
 * `registry.submit`, consumes `registry.poll`), a breaker per message class, and the ops endpoints.
 */
export function startRegistrySubmitter(config: RegistrySubmitterConfig, logger: Logger): Promise<RegistrySubmitter> {
  const { gatewayUrl, gatewayTest, presenter } = config.registry;
  return startSubmitterWorker({
    service: SERVICE,
    authority: "registry",
    config,
    logger,
    breakers: { submission: "registry-submission", status: "registry-status" },
    counters: {
      submissions: "registry_submissions_total",
      outcomes: "registry_outcomes_total",
      outcomesHelp: "Final accounts outcomes published, by outcome and filing error code",
    },
    submitResponse: SubmitRegistryAccountsResponse,
    pollQueue: REGISTRY_POLL_QUEUE,
    submitQueue: REGISTRY_SUBMIT_QUEUE,
    handlers: ({ breakers, submitting, polling }) => {
      const gateway = new RegistryGateway({ gatewayUrl, gatewayTest, presenter, breakers });
      const accountsSubmitter = new AccountsSubmitter({ ...submitting, config, gateway });
      const statusPoller = new StatusPoller({ ...polling, gateway, backoff: config.registry.pollBackoff });
      return {
        poll: { "registry.poll_status": (message, context) => statusPoller.poll(message.payload, context) },
        submit: {
          "registry.submit_accounts": (request, context) => accountsSubmitter.submit(request, context),
          "registry.resolve_accounts": (request, context) => accountsSubmitter.resolve(request, context),
        },
      };
    },
  });
}
