import express, { type Request, type Response, type Router } from "express";
import type { SimContext } from "../context.ts";
import { recordExchange } from "../record-exchange.ts";

function page(req: Request, defaultSize: number): { start: number; size: number } {
  const start = Number.parseInt(String(req.query.start_index ?? "0"), 10);
  const size = Number.parseInt(String(req.query.items_per_page ?? defaultSize), 10);
  return {
    start: Number.isFinite(start) && start >= 0 ? start : 0,
    size: Number.isFinite(size) && size > 0 ? Math.min(size, 100) : defaultSize,
  };
}

/**
 * The registry public data API: company profile, officers and filing history (JSON shapes of
 * @dormant/company-data). Mount it behind the API-key check.
 */
export function companyRoutes(context: SimContext): Router {
  const router = express.Router();

  const lookup = (req: Request, res: Response, kind: string) => {
    const number = String(req.params.number);
    const company = context.directory.find(number);
    recordExchange(context, "registry-data", { kind, company: number, answer: company ? "200" : "404" });
    if (!company) res.status(404).json({ errors: [{ error: "company-profile-not-found", type: "ch:service" }] });
    return company;
  };

  router.get("/company/:number", (req, res) => {
    const company = lookup(req, res, "profile");
    if (company) res.json(company.profile);
  });

  router.get("/company/:number/officers", (req, res) => {
    const company = lookup(req, res, "officers");
    if (!company) return;
    const { start, size } = page(req, 35);
    const resigned = company.officers.filter((officer) => officer.resigned_on !== undefined).length;
    res.json({
      kind: "officer-list",
      items: company.officers.slice(start, start + size),
      total_results: company.officers.length,
      items_per_page: size,
      start_index: start,
      active_count: company.officers.length - resigned,
      resigned_count: resigned,
    });
  });

  router.get("/company/:number/filing-history", (req, res) => {
    const company = lookup(req, res, "filing-history");
    if (!company) return;
    const category = typeof req.query.category === "string" ? req.query.category.split(",") : undefined;
    const items = category ? company.filings.filter((item) => category.includes(item.category)) : company.filings;
    const { start, size } = page(req, 25);
    res.json({
      filing_history_status: "filing-history-available",
      items: items.slice(start, start + size),
      total_count: items.length,
      items_per_page: size,
      start_index: start,
    });
  });

  return router;
}
