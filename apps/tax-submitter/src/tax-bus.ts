import { systemTopology, type Bus } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, SUBMISSION_RPC_CATALOG, TAX_POLL_QUEUE } from "@dormant/contracts";

/** The bus as the tax submitter uses it: serves tax.submit, consumes tax.poll, publishes outcomes. */
export type TaxBus = Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof SUBMISSION_RPC_CATALOG>;

/** The longest delay a poll can be scheduled with (the longest wait tier of `tax.poll`). */
export function longestPollDelayMs(): number {
  const tiers = systemTopology.workQueues.find((queue) => queue.name === TAX_POLL_QUEUE)?.waitTiersMs ?? [];
  const longest = tiers.at(-1);
  if (longest === undefined) throw new Error(`the topology has no wait tiers for ${TAX_POLL_QUEUE}`);
  return longest;
}
