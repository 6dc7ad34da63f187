import type { SandboxFiling, SandboxOverview } from "@dormant/contracts";
import { html, type SafeHtml } from "../web/html.ts";
import { field, type PageContext, page } from "../web/layout.ts";
import { explainError } from "./error-explanations.ts";
import { filingsToggle, statusInWords, typeInWords } from "./view.ts";

/** A sandbox filing id looked up: what polling it answers, or why it cannot be one. */
export type SandboxLookup = { filingId: string; filing: SandboxFiling; error?: undefined } | { filingId: string; error: string };

export interface SandboxView {
  overview: SandboxOverview;
  lookup?: SandboxLookup | undefined;
}

function lookupForm(lookup: SandboxLookup | undefined): SafeHtml {
  return html`<form method="get" action="/filings/sandbox" class="filters" aria-label="Look up a sandbox filing">
${field({
  id: "sandbox-filing-id",
  name: "filing_id",
  label: "Sandbox filing id",
  hint: "The filing_id a submit with a test key answered, for example fil_test_ct600_00000001_9f86d081884c7d65.",
  value: lookup?.filingId ?? "",
  autocomplete: "off",
  maxlength: 128,
  error: lookup?.error,
})}
<button type="submit">Look up</button>
</form>`;
}

function polled(filing: SandboxFiling): SafeHtml {
  const fact = (label: string, value: string | undefined, code = true) =>
    value === undefined ? "" : html`<dt>${label}</dt><dd>${code ? html`<code>${value}</code>` : value}</dd>`;
  return html`<section aria-labelledby="lookup-title"><h2 id="lookup-title">What polling it answers</h2>
<p>A test key's <code>GET /api/v1/filings/${filing.filing_id}</code> answers this at once: the outcome comes from the company number, and nothing is stored.</p>
<dl class="facts">
${fact("Filing", filing.filing_id)}
<dt>Type</dt><dd>${typeInWords(filing.filing_type)}</dd>
<dt>Company number</dt><dd>${filing.company_number}</dd>
<dt>Status</dt><dd id="sandbox-status">${statusInWords(filing.status)}</dd>
${fact("Tax correlation id", filing.tax_correlation_id)}
${fact("Tax IRU number", filing.tax_iru_number)}
${filing.registry_status ? html`<dt>Registry status</dt><dd>${statusInWords(filing.registry_status)}</dd>` : ""}
${fact("Registry submission number", filing.registry_submission_number)}
</dl>
${
  filing.error
    ? html`<h3>What went wrong</h3>
<p id="sandbox-error-explanation">${explainError(filing.error.code)}</p>
<dl class="facts"><dt>Error code</dt><dd><code>${filing.error.code}</code></dd><dt>Message</dt><dd>${filing.error.message}</dd></dl>`
    : ""
}
</section>`;
}

function scenarios(overview: SandboxOverview): SafeHtml {
  return html`<section aria-labelledby="scenarios-title"><h2 id="scenarios-title">Which company numbers to try</h2>
<p>With a test key, the company number of a submit decides what polling the filing answers.</p>
<div class="table-scroll"><table>
<caption>The sandbox table: company number, outcome and why</caption>
<thead><tr><th scope="col">Company number</th><th scope="col">Jurisdiction</th><th scope="col">Outcome</th><th scope="col">Reason</th></tr></thead>
<tbody>${overview.scenarios.map(
    (row) =>
      html`<tr><td>${row.company_number === null ? "Any other" : html`<code>${row.company_number}</code>`}</td><td>${row.jurisdiction}</td><td>${statusInWords(row.outcome)}</td><td>${row.reason}</td></tr>
`,
  )}</tbody>
</table></div></section>`;
}

/** GET /filings/sandbox: what test keys see (an empty, stateless list), a lookup of a sandbox filing id, and the sandbox table. */
export function sandboxPage(context: PageContext, view: SandboxView): SafeHtml {
  const { list } = view.overview;
  return page(
    context,
    "Sandbox filings",
    html`${filingsToggle("sandbox")}
<section aria-labelledby="list-title"><h2 id="list-title">What a test key's list answers</h2>
<p id="sandbox-list">A test key's <code>GET /api/v1/filings</code> answers ${list.pagination.total} filings. ${list.message}</p></section>
${lookupForm(view.lookup)}
${view.lookup && "filing" in view.lookup ? polled(view.lookup.filing) : ""}
${scenarios(view.overview)}`,
  );
}
