import type { HandlerMap } from "@dormant/bus";
import { AppError } from "@dormant/contracts";
import { DormantAccountsInputError, PdfInputError } from "@dormant/documents";
import type { FILING_SERVICE_MESSAGES } from "../bus-catalog.ts";
import type { FilingDb } from "../db/client.ts";
import type { DocumentDeps } from "./document-deps.ts";
import { announceDocumentsReady } from "./documents-ready.ts";
import { fetchMissingRecords } from "./fetch-missing-records.ts";
import { readForDocuments } from "./read-for-documents.ts";
import { renderMissingDocuments, storeDocuments, type RenderOutcome } from "./render-missing.ts";

/** What handling one filing.accepted event did. */
export type DocumentsEffect =
  /** PDFs were rendered and stored. */
  | "rendered"
  /** Every PDF was there already (rendered on a read first): nothing to do. */
  | "complete"
  /** The same message was handled before (inbox): nothing done. */
  | "duplicate"
  /** No such filing, or one that is not accepted: nothing to render. */
  | "ignored";

/**
 * Retried by the bus through the queue's wait tiers: a part's submission record has not landed
 * yet and the tax submitter could not give it (it could not be asked). The documents sweep
 * (complete-documents.ts) completes the filing should the message run out of attempts.
 */
export class DocumentsNotReadyError extends Error {
  override readonly name = "DocumentsNotReadyError";
}

/** Records the message as handled; false when it already was. */
async function recordInbox(db: FilingDb, messageId: string, filingId: string): Promise<boolean> {
  const inserted = await db.$executeRaw`
    INSERT INTO inbox (message_id, type, filing_id) VALUES (${messageId}, 'filing.accepted', ${filingId})
    ON CONFLICT (message_id) DO NOTHING`;
  return inserted > 0;
}

/**
 * Handles one `filing.accepted` event from the filing service's own queue `filing.documents`, in
 * two statements and no transaction:
 * 1. whether the message was handled before (its inbox row), the filing with its parts and the
 *    facts of its accounts, and which documents it has (read-for-documents.ts);
 * 2. the PDFs it is missing (ct600_pdf per part, or accounts_pdf), rendered on the render pool
 *    in between, stored together with the message's inbox row in one statement.
 * Idempotent twice over: a redelivered message finds its inbox row (on the read, or as a
 * conflict of its write, which then stores nothing new), and a document is stored once per
 * (filing, type, part) whoever renders it. Once every PDF is stored, `filing.documents_ready` is
 * written (once per filing: documents-ready.ts).
 */
export async function renderOnAcceptance(deps: DocumentDeps, messageId: string, filingId: string): Promise<DocumentsEffect> {
  const { db } = deps;
  let read = await readForDocuments(db, messageId, filingId);
  // A part without the record of its submit (every message that carried it was lost, or older
  // than the record): asked of the tax submitter once, before anything is rendered.
  if (!read.seen && read.filing?.status === "accepted" && read.filing.parts.some((part) => part.irmark === null)) {
    if ((await fetchMissingRecords(deps, read.filing)).length > 0) read = await readForDocuments(db, messageId, filingId);
  }
  const { seen, filing, stored } = read;
  if (seen) {
    // Handled before; the announcement may not have been written then (a crash in between).
    if (filing?.status === "accepted") await announceDocumentsReady(db, filingId, deps.now());
    return "duplicate";
  }
  if (filing?.status !== "accepted") {
    await recordInbox(db, messageId, filingId);
    return "ignored";
  }
  let outcome: RenderOutcome;
  try {
    outcome = await renderMissingDocuments(db, deps.renderer, filing, deps.now(), stored);
  } catch (error) {
    if (error instanceof PdfInputError || error instanceof DormantAccountsInputError) {
      // The stored facts of an accepted filing do not render: a bug, not worth retrying. Parked
      // (replayable once fixed); reads still answer every other document.
      throw new AppError("INTERNAL_ERROR", `The documents of ${filingId} cannot be rendered: ${error.message}`, {
        retryable: false,
        cause: error,
      });
    }
    throw error;
  }
  const { documents, waiting } = outcome;
  // A part still waiting for its record: store what rendered, but leave the message unhandled.
  const { recorded } = await storeDocuments(db, filingId, documents, waiting.length === 0 ? { messageId } : undefined);
  for (const document of documents) deps.onRendered?.(document.type, "event");
  if (waiting.length > 0) throw new DocumentsNotReadyError(waiting.join("; "));
  await announceDocumentsReady(db, filingId, deps.now());
  if (!recorded) return "duplicate";
  return documents.length > 0 ? "rendered" : "complete";
}

/** The consumer of `filing.documents`: the bus acks a message only after its handler committed. */
export function documentsHandlers(deps: DocumentDeps): HandlerMap<typeof FILING_SERVICE_MESSAGES, "filing.documents"> {
  return {
    "filing.accepted": async (envelope) => {
      const effect = await renderOnAcceptance(deps, envelope.message_id, envelope.payload.filing_id);
      deps.logger.info(
        { filing_id: envelope.payload.filing_id, message_id: envelope.message_id, effect },
        "filing.accepted handled: documents",
      );
    },
  };
}
