import { startSubmitterWorker, type SubmitterWorker } from "@dormant/authority-client";
import { SubmitTaxPartResponse, TAX_CHECK_QUEUE, TAX_POLL_QUEUE, TAX_SUBMIT_QUEUE } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { checkTaxPart } from "./check-part.ts";
import type { TaxSubmitterConfig } from "./env.ts";
import { PartPoller } from "./poll-part.ts";
import { TaxSubmitAttempt } from "./submit-attempt.ts";
import { PartSubmitter } from "./submit-part.ts";
import { TaxGateway } from "./tax-gateway.ts";

export const SERVICE = "tax-submitter";

/** The running worker: its bus, metrics, ops server and graceful `close()` (see startSubmitterWorker). */
export type TaxSubmitter = SubmitterWorker;

/**
 * Starts the worker (startSubmitterWorker does the common part): Redis, the bus (serves
 * `tax.submit`: submit and resolve a part; `tax.check`: check a part; consumes `tax.poll`), one
 * breaker per authority endpoint, and the ops endpoints.
 */
export async function startTaxSubmitter(config: TaxSubmitterConfig, logger: Logger): Promise<TaxSubmitter> {
  const worker = await startSubmitterWorker({
    service: SERVICE,
    authority: "tax",
    config,
    logger,
    breakers: { submission: "tax-submission", poll: "tax-poll" },
    counters: {
      submissions: "tax_submissions_total",
      outcomes: "tax_part_outcomes_total",
      outcomesHelp: "Final part outcomes published, by outcome and filing error code",
    },
    submitResponse: SubmitTaxPartResponse,
    submitAttempt: TaxSubmitAttempt,
    pollQueue: TAX_POLL_QUEUE,
    submitQueue: TAX_SUBMIT_QUEUE,
    handlers: ({ breakers, submitting, polling }) => {
      const gateway = new TaxGateway({
        submissionUrl: config.tax.submissionUrl,
        pollUrl: config.tax.pollUrl,
        gatewayTest: config.tax.gatewayTest,
        breakers,
      });
      const submitter = new PartSubmitter({ ...submitting, config, gateway });
      const poller = new PartPoller({ ...polling, gateway, lateCheck: config.lateCheck });
      return {
        poll: { "tax.poll_part": (message, context) => poller.poll(message.payload, context) },
        submit: {
          "tax.submit_part": (request, context) => submitter.submit(request, context),
          "tax.resolve_part": (request, context) => submitter.resolve(request, context),
        },
      };
    },
  });
  // Validation on a queue of its own, with its own prefetch: checks run in a loop wait behind
  // each other, never in front of a live submit. Builds and checks, never sends: no credentials,
  // no ledger, no authority call. Stopped with the bus by close().
  try {
    await worker.bus.rpcServe(
      TAX_CHECK_QUEUE,
      { "tax.check_part": (request, context) => checkTaxPart(config.tax, request, context.signal) },
      { prefetch: config.checkPrefetch },
    );
  } catch (error) {
    await worker.close();
    throw error;
  }
  return worker;
}
