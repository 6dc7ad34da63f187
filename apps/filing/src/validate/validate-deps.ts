import type { Logger } from "@dormant/service-kit";
import type { FilingBus } from "../bus-catalog.ts";
import type { FilingDb } from "../db/client.ts";
import type { RegistryDataSource } from "../registry-data/registry-data-source.ts";

/** What the validate-only path reads: the registry (live keys) or the sandbox's (test keys), the accounts a CT600 would attach, and the tax submitter's checks. */
export interface ValidateDeps {
  db: FilingDb;
  bus: Pick<FilingBus, "rpcCall">;
  registry: RegistryDataSource;
  sandboxRegistry: RegistryDataSource;
  logger: Logger;
  now: () => Date;
}

/** The registry a caller's key mode derives from. */
export function registryFor(deps: ValidateDeps, mode: "live" | "test"): RegistryDataSource {
  return mode === "test" ? deps.sandboxRegistry : deps.registry;
}
