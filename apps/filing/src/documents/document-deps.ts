import type { DocumentType } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { FilingDb } from "../db/client.ts";

/** How a document came to be rendered: on the filing.accepted event, or on a read that found it missing. */
export type RenderTrigger = "event" | "request";

/** What rendering and serving documents needs. */
export interface DocumentDeps {
  db: FilingDb;
  logger: Logger;
  now: () => Date;
  /** Called for each document this process rendered and stored. */
  onRendered?: (type: DocumentType, trigger: RenderTrigger) => void;
}
