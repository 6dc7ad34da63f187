import type { DocumentDeps } from "./document-deps.ts";
import { announceDocumentsReady } from "./documents-ready.ts";
import { renderMissingDocuments, storeDocuments, type RenderableFiling } from "./render-missing.ts";

/**
 * Renders and stores, during a read, the PDFs an accepted filing is still missing: normally the
 * filing.documents consumer has rendered them already, but a read may come first (the event is
 * on its way) or the event may have been lost or parked. Concurrent renderers are harmless: the
 * first stored copy of a document wins and is the only one ever served.
 */
export async function ensureDocuments(deps: DocumentDeps, filing: RenderableFiling): Promise<void> {
  const { documents, waiting } = await renderMissingDocuments(deps.db, deps.renderer, filing, deps.now());
  if (documents.length > 0) {
    const { stored } = await storeDocuments(deps.db, filing.id, documents);
    deps.logger.info({ filing_id: filing.id, rendered: documents.map((d) => d.fileName), stored }, "documents rendered on request");
    for (const document of documents) deps.onRendered?.(document.type, "request");
    if (waiting.length === 0) await announceDocumentsReady(deps.db, filing.id, deps.now());
  }
  if (waiting.length > 0) deps.logger.info({ filing_id: filing.id, waiting }, "documents not renderable yet");
}
