import { type HtmlValue, html, type SafeHtml } from "./html.ts";

export interface PageContext {
  /** The session's CSRF token: every form carries it. */
  csrf: string;
  /** Signed in: the header shows the navigation and "Sign out". */
  signedIn: boolean;
  /** The current path (its nav link gets aria-current). */
  path: string;
}

export function csrfField(context: Pick<PageContext, "csrf">): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${context.csrf}">`;
}

function navigation(context: PageContext): SafeHtml {
  if (!context.signedIn) return html``;
  const link = (href: string, label: string) =>
    html`<li><a href="${href}"${context.path === href ? html` aria-current="page"` : ""}>${label}</a></li>`;
  return html`<nav aria-label="Main"><ul>${link("/account", "Account")}${link("/api-access", "API access")}${link("/money", "Money")}${link("/filings", "Filings")}${link("/webhooks", "Webhooks")}</ul></nav>
<form method="post" action="/signout" class="signout">${csrfField(context)}<button type="submit">Sign out</button></form>`;
}

/** A whole page: one h1 (the title), header/nav/main landmarks, local CSS and script only. */
export function page(context: PageContext, title: string, body: HtmlValue): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Dormant Filing dashboard</title>
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body>
<header class="site"><a class="brand" href="/">Dormant Filing</a>${navigation(context)}</header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

/** A form field with its label, and its error linked by aria-describedby. */
export function field(options: {
  id: string;
  name: string;
  label: string;
  type?: string;
  value?: string;
  autocomplete?: string;
  error?: string | undefined;
  hint?: string;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
}): SafeHtml {
  const describedBy = [options.hint ? `${options.id}-hint` : "", options.error ? `${options.id}-error` : ""].filter(Boolean).join(" ");
  return html`<div class="field">
<label for="${options.id}">${options.label}</label>
${options.hint ? html`<p class="hint" id="${options.id}-hint">${options.hint}</p>` : ""}
${options.error ? html`<p class="error" id="${options.id}-error">${options.error}</p>` : ""}
<input id="${options.id}" name="${options.name}" type="${options.type ?? "text"}"${
    options.value !== undefined ? html` value="${options.value}"` : ""
  }${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ""}${options.required === false ? "" : html` required`}${
    options.minlength ? html` minlength="${options.minlength}"` : ""
  }${options.maxlength ? html` maxlength="${options.maxlength}"` : ""}${describedBy ? html` aria-describedby="${describedBy}"` : ""}${
    options.error ? html` aria-invalid="true"` : ""
  }>
</div>`;
}

/** A message box for the whole form (role=alert so screen readers announce it). */
export function alertBox(message: string | undefined, id = "form-error"): SafeHtml {
  return message ? html`<p class="alert" role="alert" id="${id}">${message}</p>` : html``;
}
