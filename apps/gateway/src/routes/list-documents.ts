import { DocumentsList, FilingIdParams, SandboxDocumentsList, successEnvelope } from "@dormant/contracts";
import { z } from "zod";
import { sendData } from "../http/envelope.ts";
import { RequestValidation } from "../http/validation.ts";
import { API_KEY_SECURITY, errorResponses, jsonResponse } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
import { defineRoute } from "./route.ts";

/** `GET /filings/{filing_id}/documents`: the documents of an accepted filing. */
export const listDocumentsRoute = defineRoute({
  kind: "read",
  openapi: {
    method: "get",
    path: "/filings/{filing_id}/documents",
    operationId: "listDocuments",
    tags: ["Documents"],
    summary: "List a filing's documents",
    description:
      "Available once the filing is `accepted` (400 `FILING_NOT_COMPLETE` before). CT600 filings have `ct600_pdf` and `ct600_xml`; accounts " +
      "filings `ixbrl_accounts` and `accounts_pdf`. Sandbox filings generate no documents: an accepted one lists none (`sandbox: true`), a " +
      "rejected or error one is `FILING_NOT_COMPLETE`.",
    security: API_KEY_SECURITY,
    request: { params: FilingIdParams },
    responses: {
      200: jsonResponse("The documents.", successEnvelope(z.union([DocumentsList, SandboxDocumentsList])), { authenticated: true }),
      ...errorResponses([400, 401, 404, 429, 503], { authenticated: true }),
    },
  },
  parse(req) {
    const validation = new RequestValidation();
    const params = validation.check(FilingIdParams, req.params, "path");
    validation.finish();
    return (params as FilingIdParams).filing_id;
  },
  async handle(filingId, { res, deps }) {
    const { caller, backend } = callerOf(res, deps.backends);
    sendData(res, 200, await backend.listDocuments(caller, filingId));
  },
});
