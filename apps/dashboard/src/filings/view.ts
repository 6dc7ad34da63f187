import type {
  DocumentsList,
  DocumentType,
  Filing,
  FilingPartStatus,
  FilingStatusChange,
  FilingsList,
  FilingType,
  Period,
} from "@dormant/contracts";
import { html, type SafeHtml } from "../web/html.ts";
import { type PageContext, page } from "../web/layout.ts";
import { explainError } from "./error-explanations.ts";

export const FILINGS_PAGE_SIZE = 25;

/** The filters of GET /filings: exactly the criteria filing.account_list supports. */
export interface FilingFilters {
  status?: string | undefined;
  type?: string | undefined;
  company_number?: string | undefined;
  client_reference?: string | undefined;
}

const STATUS_WORDS: Record<FilingPartStatus, string> = {
  pending: "Waiting to be sent",
  submitted: "Sent, waiting for the authority",
  polling: "Sent, checking for the authority's answer",
  accepted: "Accepted",
  rejected: "Rejected by the authority",
  error: "Could not be completed",
};

export function statusInWords(status: string): string {
  return (STATUS_WORDS as Record<string, string | undefined>)[status] ?? status;
}

export function typeInWords(type: FilingType | string): string {
  return type === "ct600" ? "CT600" : type === "accounts" ? "Accounts" : type;
}

function when(timestamp: string): SafeHtml {
  const date = new Date(timestamp);
  const text = Number.isNaN(date.getTime()) ? timestamp : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return html`<time datetime="${timestamp}">${text}</time>`;
}

/** To the second (a filing's changes often fall within the same minute). */
function exactly(timestamp: string): SafeHtml {
  const date = new Date(timestamp);
  const text = Number.isNaN(date.getTime()) ? timestamp : `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
  return html`<time datetime="${timestamp}">${text}</time>`;
}

function period(p: Period): string {
  return `${p.start} to ${p.end}`;
}

/** The list's query string for these filters and page (empty filters left out). */
export function filtersQuery(filters: FilingFilters, pageNumber?: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (pageNumber && pageNumber > 1) params.set("page", String(pageNumber));
  const text = params.toString();
  return text ? `?${text}` : "";
}

function option(value: string, label: string, selected: string | undefined): SafeHtml {
  return html`<option value="${value}"${selected === value ? html` selected` : ""}>${label}</option>`;
}

function filterForm(view: FilingsListView): SafeHtml {
  const f = view.filters;
  return html`<form method="get" action="/filings" class="filters" aria-label="Filter filings">
<div class="field"><label for="filter-status">Status</label>
<select id="filter-status" name="status">${option("", "Any status", f.status ?? "")}${(
    ["pending", "submitted", "accepted", "rejected", "error"] as const
  ).map((s) => option(s, statusInWords(s), f.status))}</select></div>
<div class="field"><label for="filter-type">Type</label>
<select id="filter-type" name="type">${option("", "Any type", f.type ?? "")}${option("ct600", "CT600", f.type)}${option("accounts", "Accounts", f.type)}</select></div>
<div class="field"><label for="filter-company">Company number</label>
<input id="filter-company" name="company_number" type="text" autocomplete="off" maxlength="8" value="${f.company_number ?? ""}"></div>
<div class="field"><label for="filter-reference">Client reference</label>
<input id="filter-reference" name="client_reference" type="text" autocomplete="off" maxlength="100" value="${f.client_reference ?? ""}"></div>
<button type="submit">Filter</button>
</form>`;
}

export interface FilingsListView {
  filters: FilingFilters;
  pageNumber: number;
  list: FilingsList | null;
  filterError?: string | undefined;
}

function pager(view: FilingsListView): SafeHtml {
  if (!view.list) return html``;
  const newer = view.pageNumber > 1 ? html`<a href="/filings${filtersQuery(view.filters, view.pageNumber - 1)}" rel="prev">Newer</a>` : "";
  const older = view.list.pagination.has_more
    ? html`<a href="/filings${filtersQuery(view.filters, view.pageNumber + 1)}" rel="next">Older</a>`
    : "";
  if (!newer && !older) return html``;
  return html`<nav class="pager" aria-label="Filing pages"><p>${newer}${newer && older ? " · " : ""}${older} (page ${view.pageNumber})</p></nav>`;
}

function table(view: FilingsListView): SafeHtml {
  if (view.filterError) return html`<p class="alert" role="alert" id="form-error">${view.filterError}</p>`;
  const list = view.list;
  if (!list || list.filings.length === 0) {
    const filtered = Boolean(view.filters.status || view.filters.type || view.filters.company_number || view.filters.client_reference);
    const text =
      view.pageNumber > 1
        ? html`There are no older filings.`
        : filtered
          ? html`No filings match these filters.`
          : html`No filings yet: filings made with any of the account's live API keys are listed here. Create a live key on <a href="/api-access">API access</a>; test keys' filings are in the <a href="/filings/sandbox">sandbox</a>.`;
    return html`<p id="filings-empty">${text}</p>${pager(view)}`;
  }
  const first = list.pagination.offset + 1;
  const last = list.pagination.offset + list.filings.length;
  return html`<div class="table-scroll"><table>
<caption>Live filings of every key, newest first: ${first} to ${last} of ${list.pagination.total}</caption>
<thead><tr><th scope="col">Filing</th><th scope="col">Type</th><th scope="col">Company</th><th scope="col">Period end</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${list.filings.map(
    (f) =>
      html`<tr><td><a href="/filings/${encodeURIComponent(f.filing_id)}">${f.filing_id}</a></td><td>${typeInWords(f.filing_type)}</td><td>${f.company_number} ${f.company_name}</td><td>${f.period_end}</td><td>${statusInWords(f.status)}</td><td>${when(f.created_at)}</td></tr>
`,
  )}</tbody>
</table></div>${pager(view)}`;
}

/** Live or sandbox: two links, the current one marked (no script needed). */
export function filingsToggle(current: "live" | "sandbox"): SafeHtml {
  const link = (href: string, label: string, here: boolean) =>
    html`<li><a href="${href}"${here ? html` aria-current="page"` : ""}>${label}</a></li>`;
  return html`<nav class="tabs" aria-label="Live or sandbox filings"><ul class="tab-list">${link("/filings", "Live filings", current === "live")}${link(
    "/filings/sandbox",
    "Sandbox (test keys)",
    current === "sandbox",
  )}</ul></nav>`;
}

/** GET /filings: the toggle, the filters, a page of the account's live filings, paging links that keep the filters. */
export function filingsPage(context: PageContext, view: FilingsListView): SafeHtml {
  return page(context, "Filings", html`${filingsToggle("live")}${filterForm(view)}${table(view)}`);
}

function partsTable(filing: Filing): SafeHtml {
  if (!filing.parts || filing.parts.length === 0) return html``;
  return html`<section aria-labelledby="parts-title"><h2 id="parts-title">Parts</h2>
<p>The period is longer than twelve months, so it was filed as two CT600 returns.</p>
<div class="table-scroll"><table>
<caption>The CT600 returns of this filing</caption>
<thead><tr><th scope="col">Part</th><th scope="col">Period</th><th scope="col">Status</th></tr></thead>
<tbody>${filing.parts.map(
    (p) => html`<tr><td>${p.part_number}</td><td>${period(p.period)}</td><td>${statusInWords(p.tax_status)}</td></tr>
`,
  )}</tbody>
</table></div></section>`;
}

function errorSection(filing: Filing): SafeHtml {
  if (!filing.error) return html``;
  return html`<section aria-labelledby="error-title"><h2 id="error-title">What went wrong</h2>
<p id="error-explanation">${explainError(filing.error.code)}</p>
<dl class="facts"><dt>Error code</dt><dd><code>${filing.error.code}</code></dd><dt>Message</dt><dd>${filing.error.message}</dd></dl>
</section>`;
}

/** A filing page's documents: listed (accepted filings), none to list, or the filing service not answering. */
export type FilingDocuments = { state: "listed"; list: DocumentsList } | { state: "none" } | { state: "unavailable" };

const DOCUMENT_WORDS: Record<DocumentType, string> = {
  accounts_pdf: "Accounts PDF",
  ixbrl_accounts: "Accounts iXBRL",
  ct600_pdf: "CT600 PDF",
  ct600_xml: "CT600 XML",
};

export function documentInWords(type: DocumentType, part?: number): string {
  return `${DOCUMENT_WORDS[type]}${part === undefined ? "" : ` (part ${part})`}`;
}

function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The download links. A split CT600 lists each type twice, part 1 then part 2 (the filing
 * service orders them so); the link of part 2 asks for `?part=2`.
 */
function documentsSection(filing: Filing, documents: FilingDocuments): SafeHtml {
  if (documents.state === "none") return html``;
  const heading = html`<h2 id="documents-title">Documents</h2>`;
  if (documents.state === "unavailable")
    return html`<section aria-labelledby="documents-title">${heading}<p class="alert" role="alert">The documents cannot be listed just now; reload the page in a minute.</p></section>`;
  const split = (filing.parts?.length ?? 0) > 1;
  const seen = new Map<DocumentType, number>();
  const items = documents.list.documents.map((d) => {
    const index = (seen.get(d.type) ?? 0) + 1;
    seen.set(d.type, index);
    const part = split ? index : undefined;
    const href = `/filings/${encodeURIComponent(filing.filing_id)}/documents/${d.type}${part === 2 ? "?part=2" : ""}`;
    return html`<li><a href="${href}" download>${documentInWords(d.type, part)}</a> <span class="muted">(${d.name}, ${sizeInWords(d.size_bytes)})</span></li>
`;
  });
  if (items.length === 0)
    return html`<section aria-labelledby="documents-title">${heading}<p>This filing has no documents yet.</p></section>`;
  return html`<section aria-labelledby="documents-title">${heading}<ul class="documents">${items}</ul></section>`;
}

/** A filing page's status history: its changes (oldest first), or the filing service not answering. */
export type FilingHistory = { state: "listed"; changes: FilingStatusChange[] } | { state: "unavailable" };

/** The registry's own undecided codes (field `registry_status_code`). */
const REVIEW_WORDS: Record<string, string> = {
  PENDING: "Waiting for an examiner",
  PARKED: "Held by an examiner",
};

/** What changed, in plain words: the filing, a CT600 return (by part when split), the registry. */
export function changedInWords(change: FilingStatusChange, filing: Filing): string {
  switch (change.field) {
    case "status":
      return "Filing";
    case "tax_status":
      return filing.period_split && change.part_number !== undefined ? `CT600 part ${change.part_number}` : "CT600 return";
    case "registry_status":
      return "Registry";
    case "registry_status_code":
      return "Registry's review";
  }
}

function changeStatusInWords(change: FilingStatusChange, status: string | null): string {
  if (status === null) return "—";
  return change.field === "registry_status_code" ? (REVIEW_WORDS[status] ?? status) : statusInWords(status);
}

function historySection(filing: Filing, history: FilingHistory | undefined): SafeHtml {
  if (!history) return html``;
  const heading = html`<h2 id="history-title">Status history</h2>`;
  if (history.state === "unavailable")
    return html`<section aria-labelledby="history-title">${heading}<p class="alert" id="history-unavailable">The status history could not be loaded just now; reload the page in a minute.</p></section>`;
  if (history.changes.length === 0)
    return html`<section aria-labelledby="history-title">${heading}<p id="history-empty">No status changes are recorded for this filing yet.</p></section>`;
  return html`<section aria-labelledby="history-title">${heading}
<div class="table-scroll"><table id="history">
<caption>Every change of this filing's status, oldest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
<tbody>${history.changes.map(
    (c) =>
      html`<tr><td>${exactly(c.occurred_at)}</td><td>${changedInWords(c, filing)}</td><td>${changeStatusInWords(c, c.from_status)}</td><td>${changeStatusInWords(c, c.to_status)}</td></tr>
`,
  )}</tbody>
</table></div></section>`;
}

/** GET /filings/:id: the filing in plain words, its documents once accepted, and its status history. */
export function filingPage(
  context: PageContext,
  filing: Filing,
  documents: FilingDocuments = { state: "none" },
  history?: FilingHistory,
): SafeHtml {
  return page(
    context,
    `${typeInWords(filing.filing_type)} for ${filing.company_name} (${filing.company_number})`,
    html`<dl class="facts">
<dt>Filing</dt><dd><code>${filing.filing_id}</code></dd>
<dt>Status</dt><dd id="status">${statusInWords(filing.status)}</dd>
<dt>Period</dt><dd>${period(filing.period)}</dd>
${filing.client_reference ? html`<dt>Client reference</dt><dd>${filing.client_reference}</dd>` : ""}
<dt>Created</dt><dd>${when(filing.created_at)}</dd>
<dt>Updated</dt><dd>${when(filing.updated_at)}</dd>
</dl>
${partsTable(filing)}${errorSection(filing)}${documentsSection(filing, documents)}${historySection(filing, history)}
<p><a href="/filings">All filings</a></p>`,
  );
}
