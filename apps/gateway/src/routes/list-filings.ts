import { FilingsList, ListFilingsQuery, SandboxFilingsList } from "@dormant/contracts";
import { z } from "zod";
import { API_KEY_SECURITY, readResponses } from "../openapi/responses.ts";
import { readHandler } from "./read-handler.ts";
import { defineRoute } from "./route.ts";

/** `GET /filings`: the caller's filings, newest first; always empty in the sandbox. */
export const listFilingsRoute = defineRoute({
  kind: "read",
  openapi: {
    method: "get",
    path: "/filings",
    operationId: "listFilings",
    tags: ["Filings"],
    summary: "List filings",
    description:
      "The filings of the calling key, newest first by creation date. Unknown parameters and invalid values are refused (400 with details). " +
      "With a test key the list is always empty (`sandbox: true`, pagination total 0, limit 50, offset 0): sandbox filings are not stored.",
    security: API_KEY_SECURITY,
    responses: readResponses(
      "The filings (live), or the empty sandbox list.",
      z.union([FilingsList, SandboxFilingsList]),
      [400, 401, 429, 503],
    ),
  },
  request: { query: ListFilingsQuery },
  handle: readHandler((backend, caller, { query }) => backend.listFilings(caller, query)),
});
