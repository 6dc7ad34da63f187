import { html, type SafeHtml } from "./html.ts";
import { page } from "./layout.ts";

export type ErrorKind = "csrf" | "unavailable" | "not_found" | "bad_request" | "internal" | "too_many";

const PAGES: Record<ErrorKind, { title: string; body: SafeHtml }> = {
  csrf: {
    title: "This form has expired",
    body: html`<p>The form was not accepted: it did not come from this page of the dashboard, or your session ended.</p>
<p>Nothing was changed. <a href="/">Go back to the dashboard</a>, reload the page and try again.</p>`,
  },
  unavailable: {
    title: "The platform is not answering",
    body: html`<p>The dashboard cannot reach the platform's services right now. Nothing was lost.</p>
<p>Wait a minute and <a href="/">try again</a>.</p>`,
  },
  not_found: {
    title: "Page not found",
    body: html`<p>There is nothing at this address. <a href="/">Go to the dashboard</a>.</p>`,
  },
  bad_request: {
    title: "The request was not understood",
    body: html`<p>The dashboard could not read what was sent. <a href="/">Go to the dashboard</a> and try again.</p>`,
  },
  too_many: {
    title: "Too many webhook changes",
    body: html`<p>This account made too many webhook changes or test events in a short time. Nothing was changed.</p>
<p>Wait a minute and <a href="/webhooks">try again</a>.</p>`,
  },
  internal: {
    title: "Something went wrong",
    body: html`<p>The dashboard failed to answer this request. It has been logged; please try again.</p>
<p><a href="/">Go to the dashboard</a>.</p>`,
  },
};

/** A whole error page (no navigation: it may be shown without a session). */
export function errorPage(kind: ErrorKind): SafeHtml {
  const { title, body } = PAGES[kind];
  return page({ csrf: "", signedIn: false, path: "" }, title, body);
}
