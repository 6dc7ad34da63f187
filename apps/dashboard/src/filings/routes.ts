import { performance } from "node:perf_hooks";
import { type ApiKeySummary, ClientReference, CompanyNumber, FilingStatus, FilingType, type ListFilingsCriteria } from "@dormant/contracts";
import { type NextFunction, type Request, type Response, Router } from "express";
import { accountOf, type DashboardDeps, pageContext } from "../web/context.ts";
import { errorPage } from "../web/error-pages.ts";
import { sendPage } from "../web/respond.ts";
import { type FilingClient, FilingsUnavailableError } from "./filing-client.ts";
import { FILINGS_PAGE_SIZE, type FilingFilters, filingPage, filingsPage } from "./view.ts";

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

/** The account's live keys: filings belong to the key that made them (filing.list and filing.get ask per key). */
async function liveKeysOf(deps: DashboardDeps, accountId: string): Promise<ApiKeySummary[]> {
  return (await deps.gateway.listKeys(accountId)).filter((key) => key.mode === "live");
}

type Parsed = { ok: true; criteria: Omit<ListFilingsCriteria, "limit" | "offset"> } | { ok: false; error: string };

/** The filters as filing.list's criteria, checked with the contract's own schemas. */
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

/** GET /filings (the live filings of one of the account's live keys, filtered, 25 a page) and GET /filings/:id. */
export function filingsRoutes(deps: DashboardDeps, options: FilingsOptions): Router {
  const router = Router();
  const { filings } = options;

  router.get("/filings", async (req, res) => {
    const started = performance.now();
    const accountId = accountOf(res);
    const keys = await liveKeysOf(deps, accountId);
    const requestedKey = text(req, "key");
    const key = keys.find((k) => k.key_id === requestedKey) ?? keys[0];
    const filters: FilingFilters = {
      key: keys.length > 1 ? key?.key_id : undefined,
      status: text(req, "status"),
      type: text(req, "type"),
      company_number: text(req, "company_number"),
      client_reference: text(req, "client_reference"),
    };
    const pageNumber = pageNumberOf(req);
    const parsed = criteriaOf(filters);
    const context = pageContext(res, "/filings");
    if (!key) return sendPage(res, 200, filingsPage(context, { keys, filters, pageNumber, list: null }));
    if (!parsed.ok) return sendPage(res, 422, filingsPage(context, { keys, filters, pageNumber, list: null, filterError: parsed.error }));
    const list = await filings.list(
      { accountId, keyId: key.key_id },
      { ...parsed.criteria, limit: FILINGS_PAGE_SIZE, offset: (pageNumber - 1) * FILINGS_PAGE_SIZE },
    );
    sendPage(res, 200, filingsPage(context, { keys, filters, pageNumber, list }));
    deps.logger.debug({ account_id: accountId, ms: Math.round(performance.now() - started) }, "dashboard filings page");
  });

  router.get("/filings/:id", async (req, res) => {
    const accountId = accountOf(res);
    const filingId = String(req.params.id);
    const keys = await liveKeysOf(deps, accountId);
    const requestedKey = text(req, "key");
    const candidates = requestedKey ? keys.filter((k) => k.key_id === requestedKey) : keys;
    for (const key of candidates) {
      const filing = await filings.get({ accountId, keyId: key.key_id }, filingId);
      if (filing) return sendPage(res, 200, filingPage(pageContext(res, "/filings"), filing));
    }
    sendPage(res, 404, errorPage("not_found"));
  });

  /** The filing service not answering: the dashboard's 503 page. */
  router.use("/filings", (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof FilingsUnavailableError)) return next(error);
    deps.logger.warn({ err: error.cause }, "the filing service did not answer a dashboard request");
    res.setHeader("Retry-After", "30");
    sendPage(res, 503, errorPage("unavailable"));
  });
  return router;
}
