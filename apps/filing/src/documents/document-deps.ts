import type { DocumentType } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { FilingDb } from "../db/client.ts";
import type { SubmissionResolver } from "../sweeper/resolve-submissions.ts";
import type { PdfRenderer } from "./pdf-renderer.ts";

/** How a document came to be rendered: on the filing.accepted event, or on a read that found it missing. */
export type RenderTrigger = "event" | "request";

/** What rendering and serving documents needs. */
export interface DocumentDeps {
  db: FilingDb;
  logger: Logger;
  now: () => Date;
  /** Renders the PDFs: the service's render threads, or inline. */
  renderer: PdfRenderer;
  /**
   * Asks the submitter for the record of a submit an accepted part lacks (its answer and every
   * message carrying the record were lost): fetch-missing-records.ts. None: the part waits.
   */
  resolver?: Pick<SubmissionResolver, "taxPart">;
  /** Called for each document this process rendered and stored. */
  onRendered?: (type: DocumentType, trigger: RenderTrigger) => void;
}
