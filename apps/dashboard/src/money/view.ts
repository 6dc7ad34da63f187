import { type BalanceResponse, formatPence, type LedgerLine, type LedgerPage } from "@dormant/contracts";
import { html, type SafeHtml } from "../web/html.ts";
import { alertBox, csrfField, type PageContext, page } from "../web/layout.ts";

export const LEDGER_PAGE_SIZE = 25;

export interface MoneyView {
  balance: BalanceResponse;
  ledger: LedgerPage;
  /** 1-based page of the ledger. */
  pageNumber: number;
  /** Back from the provider's checkout (?top_up=success|cancelled). */
  topUp?: "success" | "cancelled" | undefined;
  /** The top-up form as sent, and its error. */
  amount?: string;
  amountError?: string | undefined;
  formError?: string | undefined;
}

/** Pence as pounds for people: "£1,234.50", "-£0.05" (formatPence's exact digits, grouped). */
export function pounds(pence: number): string {
  const [whole = "0", fraction = "00"] = formatPence(Math.abs(pence)).split(".");
  return `${pence < 0 ? "-" : ""}£${whole.replace(/\B(?=(\d{3})+$)/g, ",")}.${fraction}`;
}

/** What a ledger line was, in plain words. */
export function describeLine(line: LedgerLine): string {
  const filing = line.filing_id ? ` for filing ${line.filing_id}` : "";
  switch (line.kind) {
    case "credit":
      return "Top-up";
    case "hold":
      return `Fee held${filing}`;
    case "capture":
      return `Fee taken${filing}`;
    case "release":
      return `Fee released${filing}`;
    case "reversal": {
      const payment = line.reversal ? ` ${line.reversal.payment_id}` : "";
      return line.reversal?.kind === "dispute" ? `Payment${payment} disputed: taken back` : `Payment${payment} refunded`;
    }
  }
}

/** The line's amount: the size of its change to the balance (top-up, fee taken) or to the held amount (hold, release). */
function lineAmount(line: LedgerLine): number {
  return Math.max(Math.abs(line.balance_delta_pence), Math.abs(line.held_delta_pence));
}

function when(timestamp: string): SafeHtml {
  const date = new Date(timestamp);
  const text = Number.isNaN(date.getTime()) ? timestamp : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return html`<time datetime="${timestamp}">${text}</time>`;
}

function ledgerTable(view: MoneyView): SafeHtml {
  const { lines, pagination } = view.ledger;
  if (lines.length === 0)
    return html`<p id="ledger-empty">${view.pageNumber > 1 ? "There are no older entries." : "No entries yet: top-ups and filing fees will be listed here."}</p>${pager(view)}`;
  const first = pagination.offset + 1;
  const last = pagination.offset + lines.length;
  return html`<div class="table-scroll"><table>
<caption>Ledger, newest first: entries ${first} to ${last} of ${pagination.total}</caption>
<thead><tr><th scope="col">Date</th><th scope="col">What</th><th scope="col">Amount</th></tr></thead>
<tbody>${lines.map(
    (line) => html`<tr><td>${when(line.created_at)}</td><td>${describeLine(line)}</td><td>${pounds(lineAmount(line))}</td></tr>
`,
  )}</tbody>
</table></div>${pager(view)}`;
}

function pager(view: MoneyView): SafeHtml {
  const newer = view.pageNumber > 1 ? html`<a href="/money?page=${view.pageNumber - 1}" rel="prev">Newer</a>` : "";
  const older = view.ledger.pagination.has_more ? html`<a href="/money?page=${view.pageNumber + 1}" rel="next">Older</a>` : "";
  if (!newer && !older) return html``;
  return html`<nav class="pager" aria-label="Ledger pages"><p>${newer}${newer && older ? " · " : ""}${older} (page ${view.pageNumber})</p></nav>`;
}

function topUpMessage(topUp: MoneyView["topUp"]): SafeHtml {
  if (topUp === "success")
    return html`<p class="warning" role="status" id="top-up-status">Thank you: your payment is being confirmed; the balance updates when the payment provider confirms it.</p>`;
  if (topUp === "cancelled") return html`<p class="warning" role="status" id="top-up-status">Top-up cancelled; nothing was charged.</p>`;
  return html``;
}

function topUpForm(context: PageContext, view: MoneyView): SafeHtml {
  const error = view.amountError;
  const describedBy = error ? "amount-hint amount-error" : "amount-hint";
  return html`<section aria-labelledby="top-up-title">
<h2 id="top-up-title">Top up</h2>
${alertBox(view.formError)}
<form method="post" action="/money/top-up" novalidate>
${csrfField(context)}
<div class="field">
<label for="amount">Amount (£)</label>
<p class="hint" id="amount-hint">From £5 to £10,000, in pounds (for example 50 or 50.00). You pay on the payment provider's page.</p>
${error ? html`<p class="error" id="amount-error">${error}</p>` : ""}
<input id="amount" name="amount" type="text" inputmode="decimal" autocomplete="off" required value="${view.amount ?? ""}" aria-describedby="${describedBy}"${
    error ? html` aria-invalid="true"` : ""
  }>
</div>
<button type="submit">Top up</button>
</form>
</section>`;
}

/** GET /money: the amounts, the top-up form and a page of the ledger. */
export function moneyPage(context: PageContext, view: MoneyView): SafeHtml {
  const { balance } = view;
  return page(
    context,
    "Money",
    html`${topUpMessage(view.topUp)}
<dl class="facts">
<dt>Balance</dt><dd id="balance">${pounds(balance.balance_pence)}</dd>
<dt>Held for filings in progress</dt><dd id="held">${pounds(balance.held_pence)}</dd>
<dt>Available</dt><dd id="available">${pounds(balance.available_pence)}</dd>
</dl>
${topUpForm(context, view)}
<section aria-labelledby="ledger-title">
<h2 id="ledger-title">Ledger</h2>
${ledgerTable(view)}
</section>`,
  );
}
