import { CompanyDeadlines, CompanyPathParams } from "@dormant/contracts";
import { z } from "zod";
import { API_KEY_SECURITY, readResponses } from "../openapi/responses.ts";
import { readHandler } from "./read-handler.ts";
import { defineRoute } from "./route.ts";

/** `GET /companies/{company_number}/deadlines` (issue 13): the company's deadlines and the caller's filings for them. */
export const getCompanyDeadlinesRoute = defineRoute({
  kind: "read",
  openapi: {
    method: "get",
    path: "/companies/{company_number}/deadlines",
    operationId: "getCompanyDeadlines",
    tags: ["Companies"],
    summary: "Get a company's filing deadlines",
    description:
      "An extension of the spec. From the registry's public data (cached for a while): the current accounts period (the registry's next " +
      "accounts) and the next one, each with its registry due date (9 months after the period ends, 6 for a plc; a month end stays a " +
      "month end), and the CT600 periods of those accounts periods (over 12 months: the first 12 months, then the rest), each with its " +
      "filing deadline 12 months after it ends. `overdue` is judged on `today`, the London date. Each period lists the calling key's own " +
      "filings for it (accounts filings by their period end; CT600 filings under the returns they cover), never another key's. A company " +
      "the registry does not know is 400 `VALIDATION_ERROR` on `company_number`, as for submits; the registry out of reach is 502 " +
      "`REGISTRY_UNAVAILABLE` with Retry-After. Test keys get a sandbox answer from the company number and the date alone, with no " +
      "filings: the company's accounting reference date is the last day of month 1 + (the first 4 bytes of SHA-256 of " +
      "`sandbox-deadlines:<company_number>`, big-endian, mod 12); the current period is the 12 months to the earliest such date whose " +
      "accounts are not yet due, so it is never overdue.",
    security: API_KEY_SECURITY,
    responses: readResponses("The company's deadlines.", CompanyDeadlines, [400, 401, 429, 502, 503]),
  },
  // No query parameters: an unknown one is refused, not ignored (as for the other reads' queries).
  request: { params: CompanyPathParams, query: z.strictObject({}) },
  handle: readHandler((backend, caller, { params }) => backend.getCompanyDeadlines(caller, params.company_number)),
});
