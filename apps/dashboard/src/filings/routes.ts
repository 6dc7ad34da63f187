import { performance } from "node:perf_hooks";
import {
  ClientReference,
  CompanyNumber,
  FilingStatus,
  FilingType,
  type ListFilingsCriteria,
  SANDBOX_FILING_ID_PATTERN,
} from "@dormant/contracts";
import { type Request, Router } from "express";
import { accountOf, type DashboardDeps, pageContext } from "../web/context.ts";
import { errorPage } from "../web/error-pages.ts";
import { sendPage } from "../web/respond.ts";
import { documentRefOf, streamDocument } from "./download.ts";
import { ServiceUnavailableError } from "../bus/unavailable.ts";
import type { FilingClient } from "./filing-client.ts";
import { type SandboxLookup, sandboxPage } from "./sandbox-view.ts";
import { FILINGS_PAGE_SIZE, type FilingDocuments, type FilingFilters, type FilingHistory, filingPage, filingsPage } from "./view.ts";

export interface FilingsOptions {
  filings: FilingClient;
}

/** Pages beyond this are refused as page 1 would be (offsets stay small). */
const MAX_PAGE = 100_000;

function text(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

function pageNumberOf(req: Request): number {
  const raw = text(req, "page") ?? "";
  if (!/^[1-9]\d{0,5}$/.test(raw)) return 1;
  return Math.min(Number(raw), MAX_PAGE);
}

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

  router.get("/filings", async (req, res) => {
    const started = performance.now();
    const accountId = accountOf(res);
    const filters: FilingFilters = {
      status: text(req, "status"),
      type: text(req, "type"),
      company_number: text(req, "company_number"),
      client_reference: text(req, "client_reference"),
    };
    const pageNumber = pageNumberOf(req);
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
  });

  router.get("/filings/sandbox", async (req, res) => {
    const accountId = accountOf(res);
    const filingId = text(req, "filing_id");
    const overview = await filings.sandboxOverview(accountId);
    let lookup: SandboxLookup | undefined;
    if (filingId !== undefined) {
      const found = SANDBOX_FILING_ID_PATTERN.test(filingId) ? await filings.sandboxFiling(accountId, filingId) : null;
      lookup = found ? { filingId, filing: found } : { filingId, error: BAD_SANDBOX_ID };
    }
    sendPage(res, lookup?.error ? 422 : 200, sandboxPage(pageContext(res, "/filings"), { overview, lookup }));
  });

  router.get("/filings/:id", async (req, res) => {
    const accountId = accountOf(res);
    const filingId = String(req.params.id);
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
  });

  router.get("/filings/:id/documents/:type", async (req, res) => {
    const accountId = accountOf(res);
    const ref = documentRefOf(String(req.params.id), String(req.params.type), req.query.part);
    if (!ref) return sendPage(res, 404, errorPage("not_found"));
    const outcome = await streamDocument({ filings, accountId, ref, res, logger: deps.logger });
    if (outcome === "not_found") sendPage(res, 404, errorPage("not_found"));
  });

  return router;
}
