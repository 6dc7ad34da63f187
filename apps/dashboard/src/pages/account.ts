import { Router } from "express";
import { accountOf, type DashboardDeps, pageContext } from "../web/context.ts";
import { html } from "../web/html.ts";
import { page } from "../web/layout.ts";
import { sendPage } from "../web/respond.ts";

/** GET /account: the agency, its account id and whether API access is on (one gateway.get_account). */
export function accountRoutes(deps: DashboardDeps): Router {
  const router = Router();
  router.get("/account", async (_req, res) => {
    const account = await deps.gateway.getAccount(accountOf(res));
    sendPage(
      res,
      200,
      page(
        pageContext(res, "/account"),
        "Your account",
        html`<dl class="facts">
<dt>Agency name</dt><dd id="account-name">${account.name}</dd>
<dt>Account id</dt><dd id="account-id"><code>${account.account_id}</code></dd>
<dt>API access</dt><dd>${account.api_access_enabled ? "On" : "Off"} (<a href="/api-access">manage API access</a>)</dd>
<dt>Created</dt><dd><time datetime="${account.created_at}">${account.created_at.slice(0, 10)}</time></dd>
</dl>`,
      ),
    );
  });
  return router;
}
