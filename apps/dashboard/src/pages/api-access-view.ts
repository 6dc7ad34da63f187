import type { ApiKeySummary, CreatedApiKey, GatewayAccount } from "@dormant/contracts";
import { html, type SafeHtml } from "../web/html.ts";
import { alertBox, csrfField, field, type PageContext, page } from "../web/layout.ts";

export interface ApiAccessView {
  account: GatewayAccount;
  keys: ApiKeySummary[];
  created?: CreatedApiKey;
  errors?: Record<string, string | undefined>;
  values?: { name: string; mode: string };
}

const minute = (timestamp: string | null) =>
  timestamp ? html`<time datetime="${timestamp}">${timestamp.slice(0, 16).replace("T", " ")} UTC</time>` : html`Never`;

function newKeyPanel(created: CreatedApiKey): SafeHtml {
  return html`<section class="new-key" aria-labelledby="new-key-title">
<h2 id="new-key-title">Your new ${created.key.mode} key${created.key.name ? html` “${created.key.name}”` : ""}</h2>
<p class="warning"><strong>Copy this secret now.</strong> It is shown only once: the platform stores only a hash of it. If you lose it, create another key and revoke this one.</p>
<div class="secret-row"><code id="new-key-secret">${created.secret}</code>
<button type="button" class="copy" data-copy-target="new-key-secret">Copy</button></div>
<p class="copy-status" id="copy-status" role="status" aria-live="polite"></p>
</section>`;
}

function keysTable(context: PageContext, keys: ApiKeySummary[]): SafeHtml {
  if (keys.length === 0) return html`<p>No keys yet.</p>`;
  const row = (key: ApiKeySummary) => html`<tr>
<td>${key.name ?? html`<span class="muted">(no name)</span>`}</td>
<td>${key.mode === "live" ? "Live" : "Test"}</td>
<td><code>${key.prefix}</code></td>
<td>${minute(key.created_at)}</td>
<td>${minute(key.last_used_at)}</td>
<td>${key.revoked_at ? "Revoked" : "Active"}</td>
<td>${
    key.revoked_at
      ? ""
      : html`<form method="post" action="/api-access/keys/${encodeURIComponent(key.key_id)}/revoke">${csrfField(context)}<button type="submit" class="danger" aria-label="Revoke ${key.name ?? key.prefix}">Revoke</button></form>`
  }</td>
</tr>`;
  return html`<div class="table-scroll"><table>
<caption>Your API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Mode</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map(row)}</tbody>
</table></div>`;
}

function createKeyForm(context: PageContext, view: ApiAccessView): SafeHtml {
  const mode = view.values?.mode ?? "test";
  const modeError = view.errors?.mode;
  return html`<section aria-labelledby="create-key-title">
<h2 id="create-key-title">Create a key</h2>
<p>A <strong>test</strong> key files nothing for real (sandbox); a <strong>live</strong> key files and is charged. To rotate a key, create a new one, move your systems to it, then revoke the old one: the account and its balance stay.</p>
<form method="post" action="/api-access/keys">
${csrfField(context)}
${field({ id: "key-name", name: "name", label: "Key name", value: view.values?.name ?? "", hint: "For example “CI server”.", error: view.errors?.name, maxlength: 80 })}
<div class="field">
<label for="key-mode">Mode</label>
${modeError ? html`<p class="error" id="key-mode-error">${modeError}</p>` : ""}
<select id="key-mode" name="mode"${modeError ? html` aria-describedby="key-mode-error" aria-invalid="true"` : ""}>
<option value="live"${mode === "live" ? html` selected` : ""}>Live</option>
<option value="test"${mode === "test" ? html` selected` : ""}>Test</option>
</select>
</div>
<button type="submit">Create key</button>
</form>
</section>`;
}

/** The API access page: enable it, or create keys, see them and revoke them. */
export function apiAccessPage(context: PageContext, view: ApiAccessView): SafeHtml {
  if (!view.account.api_access_enabled) {
    return page(
      context,
      "API access",
      html`${alertBox(view.errors?.form)}<p>API access is off for this account. Turn it on to create API keys for your software.</p>
<form method="post" action="/api-access/enable">${csrfField(context)}<button type="submit">Enable API access</button></form>`,
    );
  }
  return page(
    context,
    "API access",
    html`${alertBox(view.errors?.form)}
${view.created ? newKeyPanel(view.created) : ""}
${createKeyForm(context, view)}
<section aria-labelledby="keys-title"><h2 id="keys-title">Keys</h2>${keysTable(context, view.keys)}</section>`,
  );
}
