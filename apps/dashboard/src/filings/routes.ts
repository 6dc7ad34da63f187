import { performance } from "node:perf_hooks";
import {
  ClientReference,
  CompanyNumber,
  DocumentType,
  FilingStatus,
  FilingType,
  type ListFilingsCriteria,
  SANDBOX_FILING_ID_PATTERN,
} from "@dormant/contracts";
import { Router } from "express";
import { z } from "zod";
import { accountOf, type DashboardDeps, pageContext } from "../web/context.ts";
import { errorPage } from "../web/error-pages.ts";
import { sendPage } from "../web/respond.ts";
import { pageNumber, pageRoute, queryText } from "../web/route.ts";
import { streamDocument } from "./download.ts";
import { ServiceUnavailableError } from "../bus/unavailable.ts";
import type { DocumentRef, FilingClient } from "./filing-client.ts";
import { type SandboxLookup, sandboxPage } from "./sandbox-view.ts";
import { FILINGS_PAGE_SIZE, type FilingDocuments, type FilingFilters, type FilingHistory, filingPage, filingsPage } from "./view.ts";

export interface FilingsOptions {
  filings: FilingClient;
}

/** Pages beyond this are read as this one (offsets stay small). */
const MAX_PAGE = 100_000;

type Parsed = { ok: true; criteria: Omit<ListFilingsCriteria, "limit" | "offset"> } | { ok: false; error: string };

/** The filters as filing.account_list's criteria, checked with the contract's own schemas. */
function criteriaOf(filters: FilingFilters): Parsed {
  const criteria: Omit<ListFilingsCriteria, "limit" | "offset"> = {};
  if (filters.status) {
    const status = FilingStatus.safeParse(filters.status);
    if (!status.success) return { ok: false, error: "Choose a status from the list." };
    criteria.status = status.data;
  }
  if (filters.type) {
    const type = FilingType.safeParse(filters.type);
    if (!type.success) return { ok: false, error: "Choose CT600 or Accounts as the type." };
    criteria.type = type.data;
  }
  if (filters.company_number) {
    const number = CompanyNumber.safeParse(filters.company_number.toUpperCase());
    if (!number.success) return { ok: false, error: "A company number is 8 characters, for example 01234567 or SC123456." };
    criteria.company_number = number.data;
  }
  if (filters.client_reference) {
    const reference = ClientReference.safeParse(filters.client_reference);
    if (!reference.success) return { ok: false, error: "That client reference cannot be one the platform holds; check it." };
    criteria.client_reference = reference.data;
  }
  return { ok: true, criteria };
}

const BAD_SANDBOX_ID =
  "That is not a sandbox filing id. Sandbox filing ids look like fil_test_ct600_00000001_9f86d081884c7d65: fil_test_, the type (ct600 or accounts), the 8-character company number and 16 hex digits.";

/**
 * GET /filings (the account's live filings, whichever key made them, filtered, 25 a page),
 * GET /filings/sandbox (what test keys see), GET /filings/:id (with its documents and status history) and
 * GET /filings/:id/documents/:type (a download, streamed in slices).
 */
export function filingsRoutes(deps: DashboardDeps, options: FilingsOptions): Router {
  const router = Router();
  const { filings } = options;

  router.get(
    "/filings",
    pageRoute({
      input: {
        query: z.object({
          status: queryText,
          type: queryText,
          company_number: queryText,
          client_reference: queryText,
          page: pageNumber(MAX_PAGE),
        }),
      },
      handle: async ({ query }, _req, res) => {
        const started = performance.now();
        const accountId = accountOf(res);
        const { page: pageNumber, ...filters }: FilingFilters & { page: number } = query;
        const parsed = criteriaOf(filters);
        const context = pageContext(res, "/filings");
        if (!parsed.ok) return sendPage(res, 422, filingsPage(context, { filters, pageNumber, list: null, filterError: parsed.error }));
        const list = await filings.list(accountId, {
          ...parsed.criteria,
          limit: FILINGS_PAGE_SIZE,
          offset: (pageNumber - 1) * FILINGS_PAGE_SIZE,
        });
        sendPage(res, 200, filingsPage(context, { filters, pageNumber, list }));
        deps.logger.debug({ account_id: accountId, ms: Math.round(performance.now() - started) }, "dashboard filings page");
      },
    }),
  );

  router.get(
    "/filings/sandbox",
    pageRoute({
      input: { query: z.object({ filing_id: queryText }) },
      handle: async ({ query }, _req, res) => {
        const accountId = accountOf(res);
        const filingId = query.filing_id;
        const overview = await filings.sandboxOverview(accountId);
        let lookup: SandboxLookup | undefined;
        if (filingId !== undefined) {
          const found = SANDBOX_FILING_ID_PATTERN.test(filingId) ? await filings.sandboxFiling(accountId, filingId) : null;
          lookup = found ? { filingId, filing: found } : { filingId, error: BAD_SANDBOX_ID };
        }
        sendPage(res, lookup?.error ? 422 : 200, sandboxPage(pageContext(res, "/filings"), { overview, lookup }));
      },
    }),
  );

  router.get(
    "/filings/:id",
    pageRoute({
      input: { params: z.object({ id: z.string() }) },
      handle: async ({ params }, _req, res) => {
        const accountId = accountOf(res);
        const filingId = params.id;
        // The history is asked for beside the filing, and the page does without it: a failure (or a
        // filing gone between the two reads) is a note in its section, never a 503 of the whole page.
        const history = filings.history(accountId, filingId).then(
          (found): FilingHistory => (found ? { state: "listed", changes: found.changes } : { state: "unavailable" }),
          (error: unknown): FilingHistory => {
            deps.logger.warn(
              { err: error instanceof ServiceUnavailableError ? error.cause : error, filing_id: filingId },
              "the filing service did not answer a filing's status history",
            );
            return { state: "unavailable" };
          },
        );
        const filing = await filings.get(accountId, filingId);
        if (!filing) {
          await history;
          return sendPage(res, 404, errorPage("not_found"));
        }
        let documents: FilingDocuments = { state: "none" };
        if (filing.status === "accepted") {
          try {
            const list = await filings.listDocuments(accountId, filingId);
            documents = list ? { state: "listed", list } : { state: "none" };
          } catch (error) {
            if (!(error instanceof ServiceUnavailableError)) throw error;
            deps.logger.warn({ err: error.cause, filing_id: filingId }, "the filing service did not list a filing's documents");
            documents = { state: "unavailable" };
          }
        }
        sendPage(res, 200, filingPage(pageContext(res, "/filings"), filing, documents, await history));
      },
    }),
  );

  // A URL that cannot name a document (an unknown type, `?part=3`) is the 404 page, as an unknown filing's.
  router.get(
    "/filings/:id/documents/:type",
    pageRoute({
      input: {
        params: z.object({ id: z.string().min(1).max(128), type: DocumentType }),
        query: z.object({ part: z.enum(["1", "2"]).optional() }),
      },
      handle: async ({ params, query }, _req, res) => {
        const ref: DocumentRef = { filingId: params.id, type: params.type, ...(query.part ? { part: query.part === "1" ? 1 : 2 } : {}) };
        const outcome = await streamDocument({ filings, accountId: accountOf(res), ref, res, logger: deps.logger });
        if (outcome === "not_found") sendPage(res, 404, errorPage("not_found"));
      },
    }),
  );

  return router;
}
