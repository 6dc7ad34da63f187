import { LIST_FINAL_PAGE, type FinalFilingsCursor, type ListFinalFilingsRequest, type ListFinalFilingsResponse } from "@dormant/contracts";
import type { z } from "zod";
import type { BillingDb } from "../db/client.ts";
import { compareListedFiling, compareUnlistedAcceptance, type Findings } from "./compare-with-filings.ts";
import { acceptancesInRange, billingFactsOf } from "./filing-facts.ts";

/** One page of `filing.list_final` (the admin CLI asks the filing service over the bus). */
export type ListFinalFilings = (request: z.input<typeof ListFinalFilingsRequest>) => Promise<ListFinalFilingsResponse>;

export interface FilingsCrossCheckOptions {
  /** The window of finalized_at: [since, until). */
  since: Date;
  until: Date;
  /** Filings per page (default and at most LIST_FINAL_PAGE.max). */
  pageSize?: number;
}

export interface FilingsCrossCheckReport extends Findings {
  /** True when there is no problem (warnings do not count). */
  ok: boolean;
  checked: { since: string; until: string; pages: number; filings: number; accepted: number; rejected: number; error: number };
}

const position = (cursor: FinalFilingsCursor) => [Date.parse(cursor.finalized_at), cursor.filing_id] as const;

/** Whether `next` comes strictly after `after` in the order (finalized_at, filing id byte by byte). */
function advances(after: FinalFilingsCursor | undefined, next: FinalFilingsCursor): boolean {
  if (!after) return true;
  const [t0, id0] = position(after);
  const [t1, id1] = position(next);
  return t1 > t0 || (t1 === t0 && id1 > id0);
}

/**
 * Checks billing against the filing service's own record of the filings finalized in
 * [since, until): walks `filing.list_final` page by page and, per page, compares each filing
 * listed with billing's facts about it (compareListedFiling) and looks for acceptances billing
 * received in the same range of the order that the page does not list (compareUnlistedAcceptance).
 * Pages and billing's ranges follow the same order, (finalized_at, filing id byte by byte), so
 * memory stays at one page whatever the window: two statements on billing's database per page.
 */
export async function crossCheckWithFilings(
  db: BillingDb,
  listFinal: ListFinalFilings,
  options: FilingsCrossCheckOptions,
): Promise<FilingsCrossCheckReport> {
  const since = options.since.toISOString();
  const until = options.until.toISOString();
  const limit = Math.min(options.pageSize ?? LIST_FINAL_PAGE.default, LIST_FINAL_PAGE.max);
  const findings: Findings = { problems: [], warnings: [] };
  const checked = { since, until, pages: 0, filings: 0, accepted: 0, rejected: 0, error: 0 };

  let after: FinalFilingsCursor | undefined;
  do {
    const page = await listFinal({ since, until, limit, ...(after ? { after } : {}) });
    if (page.next && !advances(after, page.next)) {
      throw new Error(
        `filing.list_final answered a next position (${page.next.finalized_at}, ${page.next.filing_id}) that does not advance: stopped`,
      );
    }
    const ids = page.filings.map((filing) => filing.filing_id);
    const range = { since, until, ...(after ? { after } : {}), ...(page.next ? { through: page.next } : {}) };
    const [facts, unlisted] = await Promise.all([billingFactsOf(db, ids), acceptancesInRange(db, range, ids)]);
    for (const filing of page.filings) {
      compareListedFiling(filing, facts.get(filing.filing_id), findings);
      checked[filing.status] += 1;
    }
    for (const acceptance of unlisted) compareUnlistedAcceptance(acceptance, findings);
    checked.pages += 1;
    checked.filings += page.filings.length;
    after = page.next;
  } while (after);

  return { ok: findings.problems.length === 0, ...findings, checked };
}
