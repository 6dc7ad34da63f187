import type { SealingKey } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { FilingBus } from "../bus-catalog.ts";
import type { FilingDb } from "../db/client.ts";
import type { RegistryDataSource } from "../registry-data/registry-data-source.ts";

/** What the submit path needs: the database, RPCs to billing and the submitters, the registry. */
export interface SubmitDeps {
  db: FilingDb;
  bus: Pick<FilingBus, "rpcCall">;
  registry: RegistryDataSource;
  /** Open the gateway's sealed credentials; the first also seals them again per submission. */
  sealingKeys: readonly [SealingKey, ...SealingKey[]];
  logger: Logger;
  /** Tells the outbox relay that rows were just committed. */
  wakeRelay: () => void;
  /** How long a submit request holds the filing it works on. */
  claimSeconds: number;
  /** How long a duplicate submit waits for the request holding the filing. */
  claimWaitMs: number;
  now: () => Date;
}
