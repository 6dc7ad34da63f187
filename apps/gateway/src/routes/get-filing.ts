import { Filing, FilingIdParams, SandboxFiling } from "@dormant/contracts";
import { z } from "zod";
import { API_KEY_SECURITY, readResponses } from "../openapi/responses.ts";
import { readHandler } from "./read-handler.ts";
import { defineRoute } from "./route.ts";

/** `GET /filings/{filing_id}`: a filing's status; a sandbox id answers its final status at once. */
export const getFilingRoute = defineRoute({
  kind: "read",
  openapi: {
    method: "get",
    path: "/filings/{filing_id}",
    operationId: "getFiling",
    tags: ["Filings"],
    summary: "Get a filing",
    description:
      "The filing's status; split CT600 filings list their `parts`. Poll every 30 seconds for the first 5 minutes, then every 5 minutes. " +
      "A filing of another key is `FILING_NOT_FOUND`. Sandbox ids (`fil_test_...`, test keys only) answer their final status at once, derived " +
      "from the id: type and company number, `SANDBOX-CORR-<hex>` correlation id, `SANDBOX-IRU-<hex>` when accepted, `error` when rejected or error.",
    security: API_KEY_SECURITY,
    responses: readResponses("The filing (live), or the sandbox filing.", z.union([Filing, SandboxFiling]), [401, 404, 429, 503]),
  },
  request: { params: FilingIdParams },
  handle: readHandler((backend, caller, { params }) => backend.getFiling(caller, params.filing_id)),
});
