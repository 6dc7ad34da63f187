import { DocumentsList, FilingIdParams, SandboxDocumentsList } from "@dormant/contracts";
import { z } from "zod";
import { API_KEY_SECURITY, readResponses } from "../openapi/responses.ts";
import { readHandler } from "./read-handler.ts";
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
      "Available once the filing is `accepted` (400 `FILING_NOT_COMPLETE` before, and for rejected or error filings). CT600 filings have " +
      "`ct600_pdf` and `ct600_xml`; accounts filings `ixbrl_accounts` and `accounts_pdf`. A CT600 period split into two returns lists " +
      "each type twice, under names ending `-part1` and `-part2` (download the second with `?part=2`). An accepted sandbox filing " +
      "lists sample documents of its type (`sandbox: true`), rendered on request and marked SANDBOX; nothing is stored.",
    security: API_KEY_SECURITY,
    responses: readResponses("The documents.", z.union([DocumentsList, SandboxDocumentsList]), [400, 401, 404, 429, 503]),
  },
  request: { params: FilingIdParams },
  handle: readHandler((backend, caller, { params }) => backend.listDocuments(caller, params.filing_id)),
});
