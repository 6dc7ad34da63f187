import { DocumentPathParams } from "@dormant/contracts";
import { z } from "zod";
import { RequestValidation } from "../http/validation.ts";
import { API_KEY_SECURITY, errorResponses } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
import { defineRoute } from "./route.ts";

const binary = z.string().meta({ format: "binary" });

/** `GET /filings/{filing_id}/documents/{type}`: one document's bytes. */
export const getDocumentRoute = defineRoute({
  kind: "read",
  openapi: {
    method: "get",
    path: "/filings/{filing_id}/documents/{type}",
    operationId: "getDocument",
    tags: ["Documents"],
    summary: "Download a document",
    description:
      "The document as a file. 404 `DOCUMENT_NOT_FOUND` when the type does not belong to the filing's type (e.g. accounts documents of a " +
      "CT600 filing) and for sandbox filings, which generate no documents; 400 `FILING_NOT_COMPLETE` before acceptance.",
    security: API_KEY_SECURITY,
    request: { params: DocumentPathParams },
    responses: {
      200: {
        description: "The document.",
        content: {
          "application/pdf": { schema: binary },
          "application/xml": { schema: binary },
          "application/xhtml+xml": { schema: binary },
        },
      },
      ...errorResponses([400, 401, 404, 429, 503], { authenticated: true }),
    },
  },
  parse(req) {
    const validation = new RequestValidation();
    const params = validation.check(DocumentPathParams, req.params, "path");
    validation.finish();
    return params as DocumentPathParams;
  },
  async handle({ filing_id, type }, { res, deps }) {
    const { caller, backend } = callerOf(res, deps.backends);
    const document = await backend.getDocument(caller, filing_id, type);
    res.status(200);
    res.setHeader("Content-Type", document.media_type);
    res.setHeader("Content-Disposition", `attachment; filename="${document.file_name.replace(/[^A-Za-z0-9._-]/g, "_")}"`);
    res.send(Buffer.from(document.content_base64, "base64"));
  },
});
