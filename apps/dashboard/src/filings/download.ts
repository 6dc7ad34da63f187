import { randomUUID } from "node:crypto";
import type { DocumentChunk } from "@dormant/contracts";
import type { Response } from "express";
import type { Logger } from "@dormant/service-kit";
import type { DocumentRef, FilingClient } from "./filing-client.ts";

/** `attachment; filename="…"` with an ASCII fallback and the exact name as RFC 5987 `filename*`. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\;]/g, "_") || "document";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Resolves once the response can take more, or is closed (a client gone away never drains). */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

export type DownloadOutcome = "not_found" | "complete" | "aborted";

/**
 * Streams a document to `res` slice by slice (filing.account_get_document_chunk, at most 1 MiB
 * each), so the dashboard never holds a whole document. The first slice decides the headers
 * (or the 404 page, returned as "not_found" before anything is sent); every later slice must be
 * of the same stored version (`generated_at`) and follow on exactly. If one is not, or the filing
 * service fails mid-way, the response is cut short (the socket destroyed): with Content-Length
 * promised, the browser reports a failed download rather than saving a truncated file.
 */
export async function streamDocument(options: {
  filings: FilingClient;
  accountId: string;
  ref: DocumentRef;
  res: Response;
  logger: Logger;
}): Promise<DownloadOutcome> {
  const { filings, accountId, ref, res, logger } = options;
  const requestId = `dash_${randomUUID()}`;
  const first = await filings.documentChunk(accountId, ref, 0, requestId);
  if (!first) return "not_found";
  res.status(200);
  res.setHeader("Content-Type", first.media_type);
  res.setHeader("Content-Disposition", attachmentDisposition(first.file_name));
  res.setHeader("Content-Length", String(first.total_bytes));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", "private, no-store");
  const abort = (reason: string, err?: unknown) => {
    logger.warn({ err, account_id: accountId, filing_id: ref.filingId, document_type: ref.type, request_id: requestId }, reason);
    res.destroy();
    return "aborted" as const;
  };
  let chunk: DocumentChunk = first;
  let sent = 0;
  for (;;) {
    if (chunk.offset !== sent || chunk.generated_at !== first.generated_at || chunk.total_bytes !== first.total_bytes) {
      return abort("a document's slices came from different stored versions; download cut short");
    }
    const bytes = Buffer.from(chunk.content_base64, "base64");
    if (sent + bytes.length > first.total_bytes) return abort("a document slice ran past its total size; download cut short");
    if (bytes.length > 0 && !res.write(bytes)) await drained(res);
    if (res.destroyed) return "aborted";
    sent += bytes.length;
    if (sent === first.total_bytes) break;
    if (bytes.length === 0) return abort("a document slice was empty before its end; download cut short");
    try {
      const next = await filings.documentChunk(accountId, ref, sent, requestId);
      if (!next) return abort("a document vanished mid-download; download cut short");
      chunk = next;
    } catch (error) {
      return abort("the filing service failed mid-download; download cut short", error);
    }
  }
  res.end();
  return "complete";
}
