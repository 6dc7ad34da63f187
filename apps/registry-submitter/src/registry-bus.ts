import { systemTopology, type Bus } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, REGISTRY_POLL_QUEUE, SUBMISSION_RPC_CATALOG } from "@dormant/contracts";

/** The bus as the registry submitter uses it: serves registry.submit, consumes registry.poll, publishes outcomes. */
export type RegistryBus = Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof SUBMISSION_RPC_CATALOG>;

/** The longest delay a status poll can be scheduled with (the longest wait tier of `registry.poll`). */
export function longestPollDelayMs(): number {
  const longest = systemTopology.workQueues.find((queue) => queue.name === REGISTRY_POLL_QUEUE)?.waitTiersMs.at(-1);
  if (longest === undefined) throw new Error(`the topology has no wait tiers for ${REGISTRY_POLL_QUEUE}`);
  return longest;
}
