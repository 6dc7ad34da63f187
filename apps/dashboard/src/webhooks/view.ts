import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveriesList,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
  type WebhookEndpointsList,
  type WebhookEndpointWithSecret,
} from "@dormant/contracts";
import { html, type SafeHtml } from "../web/html.ts";
import { alertBox, csrfField, type PageContext, page } from "../web/layout.ts";
import type { WebhookMode } from "./notifier-client.ts";

export const ENDPOINTS_PAGE_SIZE = 25;
export const DELIVERIES_PAGE_SIZE = 25;

/** The event types in plain words (the code is shown next to it: it is what the endpoint receives). */
export const EVENT_LABELS: Record<string, string> = {
  "filing.accepted": "Filing accepted",
  "filing.rejected": "Filing rejected",
  "filing.errored": "Filing ended in error",
  "filing.documents_ready": "Filing documents ready",
  "webhook.test": "Test event",
};

const MODE_WORD: Record<WebhookMode, string> = { live: "live", test: "test" };

export interface EndpointFormValues {
  url: string;
  events: string[];
  description: string;
}

export interface WebhooksView {
  mode: WebhookMode;
  list: WebhookEndpointsList;
  pageNumber: number;
  /** Just created: its secret, shown on this one answer only. */
  created?: WebhookEndpointWithSecret | undefined;
  /** "deleted" after a delete. */
  notice?: "deleted" | undefined;
  values?: EndpointFormValues | undefined;
  errors?: Record<string, string | undefined> | undefined;
}

export interface EndpointView {
  mode: WebhookMode;
  endpoint: WebhookEndpoint;
  deliveries: WebhookDeliveriesList;
  pageNumber: number;
  /** The id of the test event just queued. */
  testSent?: string | undefined;
  /** Just enabled again (after the enable form's redirect). */
  enabled?: boolean | undefined;
  /** The notifier refused to enable it: why (its URL is now refused). */
  enableRefused?: string | undefined;
  /** Its secret just rotated: the new one, shown on this one answer only. */
  rotated?: WebhookEndpointWithSecret | undefined;
}

export const modeQuery = (mode: WebhookMode) => `mode=${mode}`;
export const endpointPath = (id: string, mode: WebhookMode) => `/webhooks/endpoints/${encodeURIComponent(id)}?${modeQuery(mode)}`;

function when(timestamp: string | undefined): SafeHtml {
  if (!timestamp) return html``;
  const date = new Date(timestamp);
  const text = Number.isNaN(date.getTime()) ? timestamp : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return html`<time datetime="${timestamp}">${text}</time>`;
}

function eventList(events: readonly string[]): SafeHtml {
  return html`${events.map((type, index) => html`${index > 0 ? ", " : ""}${EVENT_LABELS[type] ?? type}`)}`;
}

function statusText(endpoint: WebhookEndpoint): SafeHtml {
  if (endpoint.status === "enabled") return html`Enabled`;
  return html`<strong class="disabled">Disabled</strong>${endpoint.disabled_at ? html` since ${when(endpoint.disabled_at)}` : ""}${
    endpoint.disabled_reason ? html`: ${endpoint.disabled_reason}` : ""
  }`;
}

function modeSwitch(mode: WebhookMode): SafeHtml {
  const link = (target: WebhookMode, label: string) =>
    html`<li><a href="/webhooks?${modeQuery(target)}"${mode === target ? html` aria-current="page"` : ""}>${label}</a></li>`;
  return html`<nav class="tabs" aria-label="Key mode"><ul class="tab-list">${link("live", "Live endpoints")}${link("test", "Test endpoints")}</ul></nav>`;
}

/** A signing secret shown once, with its Copy button. */
function secretField(secret: string): SafeHtml {
  return html`<div class="field secret-field">
<label for="new-endpoint-secret">Signing secret</label>
<div class="secret-row"><input id="new-endpoint-secret" class="secret" type="text" readonly autocomplete="off" spellcheck="false" value="${secret}">
<button type="button" class="copy" data-copy-target="new-endpoint-secret">Copy</button></div>
</div>
<p class="copy-status" id="copy-status" role="status" aria-live="polite"></p>`;
}

function rotatedSecretPanel(rotated: WebhookEndpointWithSecret): SafeHtml {
  return html`<section class="new-key" aria-labelledby="rotated-secret-title">
<h2 id="rotated-secret-title">New signing secret</h2>
<p class="warning"><strong>Copy this signing secret now.</strong> It is shown only once. Events now carry two signatures: one with this secret and one with the previous secret, which keeps signing for 24 hours, so your endpoint can switch to the new one without missing an event.</p>
${secretField(rotated.secret)}
</section>`;
}

function newEndpointPanel(created: WebhookEndpointWithSecret, mode: WebhookMode): SafeHtml {
  return html`<section class="new-key" aria-labelledby="new-endpoint-title">
<h2 id="new-endpoint-title">Your new ${MODE_WORD[mode]} endpoint</h2>
<p>Events will be sent to <code>${created.url}</code> (<a href="${endpointPath(created.id, mode)}">its deliveries</a>).</p>
<p class="warning"><strong>Copy this signing secret now.</strong> It is shown only once: it verifies that events come from the platform (the <code>webhook-signature</code> header, Standard Webhooks). If you lose it, rotate it on the endpoint's page.</p>
${secretField(created.secret)}
</section>`;
}

function addEndpointForm(context: PageContext, view: WebhooksView): SafeHtml {
  const values = view.values ?? { url: "", events: [...WEBHOOK_EVENT_TYPES], description: "" };
  const errors = view.errors ?? {};
  const urlDescribedBy = ["endpoint-url-hint", errors.url ? "endpoint-url-error" : ""].filter(Boolean).join(" ");
  return html`<section aria-labelledby="add-endpoint-title">
<h2 id="add-endpoint-title">Add a ${MODE_WORD[view.mode]} endpoint</h2>
${alertBox(errors.form)}
<form method="post" action="/webhooks/endpoints" novalidate>
${csrfField(context)}
<input type="hidden" name="mode" value="${view.mode}">
<div class="field">
<label for="endpoint-url">Endpoint URL</label>
<p class="hint" id="endpoint-url-hint">Where the platform POSTs events, for example https://agency.example.com/hooks/dormant. Use an address reachable from the internet: addresses on private or local networks may be refused.</p>
${errors.url ? html`<p class="error" id="endpoint-url-error">${errors.url}</p>` : ""}
<input id="endpoint-url" name="url" type="url" inputmode="url" autocomplete="off" spellcheck="false" required maxlength="2048" value="${values.url}" aria-describedby="${urlDescribedBy}"${
    errors.url ? html` aria-invalid="true"` : ""
  }>
</div>
<fieldset class="field"${errors.events ? html` aria-describedby="endpoint-events-error"` : ""}>
<legend>Events to send</legend>
${errors.events ? html`<p class="error" id="endpoint-events-error">${errors.events}</p>` : ""}
${WEBHOOK_EVENT_TYPES.map(
  (type) => html`<div class="check"><input type="checkbox" id="event-${type.replace(".", "-")}" name="events" value="${type}"${
    values.events.includes(type) ? html` checked` : ""
  }><label for="event-${type.replace(".", "-")}">${EVENT_LABELS[type] ?? type} <code>${type}</code></label></div>
`,
)}
</fieldset>
<div class="field">
<label for="endpoint-description">Description (optional)</label>
${errors.description ? html`<p class="error" id="endpoint-description-error">${errors.description}</p>` : ""}
<input id="endpoint-description" name="description" type="text" autocomplete="off" maxlength="200" value="${values.description}"${
    errors.description ? html` aria-describedby="endpoint-description-error" aria-invalid="true"` : ""
  }>
</div>
<button type="submit">Add endpoint</button>
</form>
</section>`;
}

function deleteForm(context: PageContext, endpoint: WebhookEndpoint, mode: WebhookMode, label: string): SafeHtml {
  return html`<form method="post" action="/webhooks/endpoints/${encodeURIComponent(endpoint.id)}/delete">${csrfField(context)}<input type="hidden" name="mode" value="${mode}"><button type="submit" class="danger" aria-label="${label} ${endpoint.url}">${label}</button></form>`;
}

function pager(base: string, label: string, pageNumber: number, hasMore: boolean): SafeHtml {
  const join = base.includes("?") ? "&" : "?";
  const newer = pageNumber > 1 ? html`<a href="${base}${join}page=${pageNumber - 1}" rel="prev">Newer</a>` : "";
  const older = hasMore ? html`<a href="${base}${join}page=${pageNumber + 1}" rel="next">Older</a>` : "";
  if (!newer && !older) return html``;
  return html`<nav class="pager" aria-label="${label}"><p>${newer}${newer && older ? " · " : ""}${older} (page ${pageNumber})</p></nav>`;
}

function endpointsTable(context: PageContext, view: WebhooksView): SafeHtml {
  const { endpoints, pagination } = view.list;
  const more = pager(`/webhooks?${modeQuery(view.mode)}`, "Endpoint pages", view.pageNumber, pagination.has_more);
  if (endpoints.length === 0)
    return html`<p id="endpoints-empty">${view.pageNumber > 1 ? "There are no more endpoints." : `No ${MODE_WORD[view.mode]} endpoints yet.`}</p>${more}`;
  const row = (endpoint: WebhookEndpoint) => html`<tr${endpoint.status === "disabled" ? html` class="is-disabled"` : ""}>
<td class="url"><a href="${endpointPath(endpoint.id, view.mode)}">${endpoint.url}</a>${
    endpoint.description ? html`<br><span class="muted">${endpoint.description}</span>` : ""
  }</td>
<td>${eventList(endpoint.events)}</td>
<td>${statusText(endpoint)}</td>
<td>${when(endpoint.created_at)}</td>
<td>${deleteForm(context, endpoint, view.mode, "Delete")}</td>
</tr>`;
  return html`<div class="table-scroll"><table>
<caption>Your ${MODE_WORD[view.mode]} endpoints, newest first: ${pagination.offset + 1} to ${pagination.offset + endpoints.length} of ${pagination.total}</caption>
<thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${endpoints.map(row)}</tbody>
</table></div>${more}`;
}

/** GET /webhooks: the mode switch, the new endpoint's secret (once), the add form and the endpoints of the mode. */
export function webhooksPage(context: PageContext, view: WebhooksView): SafeHtml {
  return page(
    context,
    "Webhooks",
    html`<p>The platform sends signed events to your endpoints when a filing is accepted, rejected or ends in error, and when its documents are ready. Live keys and test keys have separate endpoints: test endpoints receive the sandbox's events.</p>
${modeSwitch(view.mode)}
${view.notice === "deleted" ? html`<p class="warning" role="status" id="webhooks-status">The endpoint was deleted; nothing more is sent to it.</p>` : ""}
${view.created ? newEndpointPanel(view.created, view.mode) : ""}
${addEndpointForm(context, view)}
<section aria-labelledby="endpoints-title"><h2 id="endpoints-title">${view.mode === "live" ? "Live endpoints" : "Test endpoints"}</h2>${endpointsTable(context, view)}</section>`,
  );
}

function outcomeText(attempt: WebhookDeliveryAttempt): string {
  return attempt.outcome === "delivered" ? "Delivered" : "Failed";
}

function deliveriesTable(view: EndpointView): SafeHtml {
  const { deliveries, pagination } = view.deliveries;
  const more = pager(endpointPath(view.endpoint.id, view.mode), "Delivery pages", view.pageNumber, pagination.has_more);
  if (deliveries.length === 0)
    return html`<p id="deliveries-empty">${view.pageNumber > 1 ? "There are no older attempts." : "No delivery attempts yet."}</p>${more}`;
  const row = (attempt: WebhookDeliveryAttempt) => html`<tr>
<td>${when(attempt.attempted_at)}</td>
<td>${EVENT_LABELS[attempt.event_type] ?? attempt.event_type}<br><code>${attempt.event_id}</code></td>
<td>${attempt.attempt}</td>
<td>${outcomeText(attempt)}</td>
<td>${attempt.status_code ?? html`<span class="muted">none</span>`}</td>
<td>${attempt.error ?? ""}</td>
<td>${attempt.next_retry_at ? when(attempt.next_retry_at) : ""}</td>
</tr>`;
  return html`<div class="table-scroll"><table>
<caption>Delivery attempts, newest first: ${pagination.offset + 1} to ${pagination.offset + deliveries.length} of ${pagination.total}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">HTTP status</th><th scope="col">Error</th><th scope="col">Next try</th></tr></thead>
<tbody>${deliveries.map(row)}</tbody>
</table></div>${more}`;
}

/** GET /webhooks/endpoints/:id: the endpoint, "Send test event", its recent delivery attempts, "Rotate signing secret" and "Delete endpoint". */
export function endpointPage(context: PageContext, view: EndpointView): SafeHtml {
  const { endpoint, mode } = view;
  const disabled = endpoint.status === "disabled";
  return page(
    context,
    "Webhook endpoint",
    html`<p><a href="/webhooks?${modeQuery(mode)}">All ${MODE_WORD[mode]} endpoints</a></p>
${view.rotated ? rotatedSecretPanel(view.rotated) : ""}
${view.enabled && !disabled ? html`<p class="warning" role="status" id="enabled-status">The endpoint is enabled again: events from now on are sent to it.</p>` : ""}
${view.testSent ? html`<p class="warning" role="status" id="test-status">Test event <code>${view.testSent}</code> queued: its attempts appear below within a few seconds (reload the page).</p>` : ""}
<dl class="facts">
<dt>URL</dt><dd id="endpoint-url"><code>${endpoint.url}</code></dd>
<dt>Mode</dt><dd>${mode === "live" ? "Live" : "Test"}</dd>
<dt>Events</dt><dd>${eventList(endpoint.events)}</dd>
${endpoint.description ? html`<dt>Description</dt><dd>${endpoint.description}</dd>` : ""}
<dt>Status</dt><dd id="endpoint-status">${statusText(endpoint)}</dd>
<dt>Created</dt><dd>${when(endpoint.created_at)}</dd>
<dt>Id</dt><dd><code>${endpoint.id}</code></dd>
</dl>
${
  disabled
    ? html`<p class="warning">This endpoint is disabled: every delivery to it failed for 3 days, so nothing more is sent. Once it works again, enable it: the same address and signing secret, and events from then on (those from while it was disabled are not sent).</p>
${view.enableRefused ? html`<p class="error" role="alert" id="enable-error">The endpoint was not enabled: ${view.enableRefused}</p>` : ""}
<form method="post" action="/webhooks/endpoints/${encodeURIComponent(endpoint.id)}/enable">${csrfField(context)}<input type="hidden" name="mode" value="${mode}"><button type="submit">Enable endpoint</button></form>`
    : html`<form method="post" action="/webhooks/endpoints/${encodeURIComponent(endpoint.id)}/test">${csrfField(context)}<input type="hidden" name="mode" value="${mode}"><button type="submit">Send test event</button></form>`
}
<section aria-labelledby="deliveries-title"><h2 id="deliveries-title">Recent deliveries</h2>${deliveriesTable(view)}</section>
<section aria-labelledby="rotate-title"><h2 id="rotate-title">Rotate the signing secret</h2>
<p>For a secret that was lost or may have leaked: you get a new one, shown once. The previous secret keeps signing beside it for 24 hours, then stops.</p>
<form method="post" action="/webhooks/endpoints/${encodeURIComponent(endpoint.id)}/rotate">${csrfField(context)}<input type="hidden" name="mode" value="${mode}"><button type="submit">Rotate signing secret</button></form>
</section>
<section aria-labelledby="delete-title"><h2 id="delete-title">Delete this endpoint</h2>
<p>Nothing more is sent to it, and attempts still waiting are cancelled. This cannot be undone.</p>
${deleteForm(context, endpoint, mode, "Delete endpoint")}
</section>`,
  );
}
