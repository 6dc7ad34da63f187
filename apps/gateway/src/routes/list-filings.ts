import { FilingsList, ListFilingsQuery, SandboxFilingsList, successEnvelope } from "@dormant/contracts";
import { z } from "zod";
import { sendData } from "../http/envelope.ts";
import { API_KEY_SECURITY, errorResponses, jsonResponse } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
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
    responses: {
      200: jsonResponse("The filings (live), or the empty sandbox list.", successEnvelope(z.union([FilingsList, SandboxFilingsList])), {
        authenticated: true,
      }),
      ...errorResponses([400, 401, 429, 503], { authenticated: true }),
    },
  },
  request: { query: ListFilingsQuery },
  async handle({ query }, { res, deps }) {
    const { caller, backend } = callerOf(res, deps.backends);
    sendData(res, 200, await backend.listFilings(caller, query));
  },
});
