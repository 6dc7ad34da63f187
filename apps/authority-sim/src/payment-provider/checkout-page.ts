// LOCAL STAND-IN OF THE PAYMENT PROVIDER (not an authority; never in production): the checkout
// page an agent pays on. Server-rendered, no script at all, styles from a file of its own (the
// Content-Security-Policy below forbids inline script and inline style), usable on a phone.
import { formatPence } from "@dormant/contracts";
import type { CheckoutSession } from "./sessions.ts";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** £1,234.56 */
export function displayPounds(pence: bigint): string {
  const [pounds = "0", fraction = "00"] = formatPence(pence).split(".");
  return `£${pounds.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

/**
 * The page's CSP: nothing but its own stylesheet, its form posting to itself, and (because
 * browsers apply `form-action` to the redirect after a form) the origins it sends the agent back to.
 */
export function checkoutPageCsp(session: CheckoutSession | undefined): string {
  const returns = session ? [...new Set([session.success_url, session.cancel_url].map((url) => new URL(url).origin))] : [];
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    `form-action 'self' ${returns.join(" ")}`.trim(),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** `assets`: the path the stand-in serves checkout.css and favicon.svg under. */
function layout(title: string, body: string, assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assets}/checkout.css">
<link rel="icon" href="${assets}/favicon.svg" type="image/svg+xml">
</head>
<body>
<header>
<p class="stand-in"><strong>Local stand-in of the payment provider.</strong> No real money moves; it never runs in production.</p>
</header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The checkout: the amount, a "Pay £X.XX" button and a "Cancel" link. */
export function checkoutPage(session: CheckoutSession, paths: { pay: string; cancel: string; assets: string }): string {
  const amount = displayPounds(session.amount_pence);
  if (session.status !== "open") return outcomePage(session, paths.assets);
  return layout(
    `Pay ${amount} – checkout`,
    `<h1>Top up your balance</h1>
<p class="amount">Amount to pay: <strong>${amount}</strong></p>
<form method="post" action="${escapeHtml(paths.pay)}" aria-describedby="pay-note">
  <p>
    <label for="card">Test card number</label>
    <input id="card" name="card" type="text" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242" readonly>
  </p>
  <p id="pay-note" class="note">Paying credits ${amount} to account <code>${escapeHtml(session.account_id)}</code>.</p>
  <p class="actions">
    <button type="submit">Pay ${amount}</button>
    <a href="${escapeHtml(paths.cancel)}">Cancel</a>
  </p>
</form>`,
    paths.assets,
  );
}

/** A session that is no longer open: where it ended. */
export function outcomePage(session: CheckoutSession, assets: string): string {
  const amount = displayPounds(session.amount_pence);
  const [heading, text, back] =
    session.status === "paid"
      ? ["Payment received", `${amount} was paid.`, session.success_url]
      : ["Checkout cancelled", "Nothing was paid.", session.cancel_url];
  return layout(heading, `<h1>${heading}</h1>\n<p>${text}</p>\n<p><a href="${escapeHtml(back)}">Return to the dashboard</a></p>`, assets);
}

/** An error page (unknown session, webhook not delivered). */
export function problemPage(heading: string, text: string, assets: string): string {
  return layout(heading, `<h1>${escapeHtml(heading)}</h1>\n<p>${escapeHtml(text)}</p>`, assets);
}

/** A plain square icon, so that browsers do not ask the simulator for a /favicon.ico it does not have. */
export const CHECKOUT_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b5394"/></svg>`;

/** The page's stylesheet: readable contrast, large targets, one column on a phone. */
export const CHECKOUT_CSS = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:1rem;line-height:1.5;color:#1a1a1a;background:#f4f4f4}
main{max-width:32rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border:1px solid #8a8a8a;border-radius:.5rem}
.stand-in{margin:0;padding:.75rem 1rem;background:#fff3bf;color:#1a1a1a;border-bottom:2px solid #7a5c00}
h1{font-size:1.5rem;margin-top:0}
.amount{font-size:1.25rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;padding:.6rem;font-size:1rem;border:1px solid #595959;border-radius:.25rem;color:#1a1a1a;background:#f8f8f8}
.note{color:#333}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
button{min-height:44px;padding:.6rem 1.25rem;font-size:1.1rem;font-weight:600;color:#fff;background:#0b5394;border:0;border-radius:.25rem;cursor:pointer}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
a{color:#0b5394;min-height:44px;display:inline-flex;align-items:center}
@media (max-width:30rem){main{margin:0;border:0;border-radius:0}.actions{flex-direction:column;align-items:stretch}button{width:100%}a{justify-content:center}}
`;
