import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { DocumentPathParams } from "@dormant/contracts";
import { z } from "zod";
import { API_KEY_SECURITY, errorResponses } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
import { defineRoute } from "./route.ts";

const binary = z.string().meta({ format: "binary" });

/** `?part=`: which return of a split CT600 (1 or 2); unknown parameters are refused, as on GET /filings. */
const DocumentQuery = z.strictObject({
  part: z
    .string({ error: "must be given once, as 1 or 2" })
    .regex(/^[12]$/, "must be 1 or 2")
    .transform(Number)
    .optional()
    .meta({
      description: "For a CT600 period split into two returns: `2` for the second return's document. Default `1` (the only one otherwise).",
      type: "integer",
      enum: [1, 2],
    }),
});

/** A file name safe inside a quoted Content-Disposition parameter. */
const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, "_");

/** True when the caller went away mid-download: nothing to answer, nothing wrong on our side. */
function isPrematureClose(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ERR_STREAM_PREMATURE_CLOSE";
}

/** `GET /filings/{filing_id}/documents/{type}`: one document, streamed. */
export const getDocumentRoute = defineRoute({
  kind: "read",
  openapi: {
    method: "get",
    path: "/filings/{filing_id}/documents/{type}",
    operationId: "getDocument",
    tags: ["Documents"],
    summary: "Download a document",
    description:
      "The document as a file (`Content-Disposition: attachment` with its name, `Content-Length`), streamed. 400 `FILING_NOT_COMPLETE` " +
      "before acceptance; 404 `DOCUMENT_NOT_FOUND` when the type does not belong to the filing's type (e.g. accounts documents of a " +
      "CT600 filing) or the filing has no such `part`. A CT600 period split into two returns has two documents of each CT600 type: " +
      "`?part=2` downloads the second return's. Sandbox filings that are accepted offer sample documents marked SANDBOX.",
    security: API_KEY_SECURITY,
    responses: {
      200: {
        description: "The document.",
        headers: {
          "Content-Length": { description: "Size of the document in bytes.", schema: { type: "integer" } },
          "Content-Disposition": {
            description: '`attachment; filename="<name>"`: the name the documents list gives it.',
            schema: { type: "string" },
          },
        },
        content: {
          "application/pdf": { schema: binary },
          "application/xml": { schema: binary },
          "application/xhtml+xml": { schema: binary },
        },
      },
      ...errorResponses([400, 401, 404, 429, 503], { authenticated: true }),
    },
  },
  request: { params: DocumentPathParams, query: DocumentQuery },
  async handle({ params: { filing_id, type }, query: { part } }, { res, deps }) {
    const { caller, backend } = callerOf(res, deps.backends);
    // Every refusal happens here, before the status line; after it, the body is streamed as the
    // backend fetches it (one slice held at a time), so a large document is never held whole.
    const document = await backend.openDocument(caller, filing_id, type, part);
    res.status(200);
    res.setHeader("Content-Type", document.mediaType);
    res.setHeader("Content-Length", String(document.sizeBytes));
    res.setHeader("Content-Disposition", `attachment; filename="${safeFileName(document.fileName)}"`);
    try {
      await pipeline(Readable.from(document.chunks, { objectMode: false, highWaterMark: 1 }), res);
    } catch (error) {
      // A failure after the headers (the filing service out of reach mid-way) cuts the response
      // short of its Content-Length, so the client can tell; the error handler logs it.
      if (!isPrematureClose(error)) throw error;
    }
  },
});
