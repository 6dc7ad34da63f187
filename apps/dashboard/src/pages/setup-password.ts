import { type Response, Router } from "express";
import { hashPassword } from "../auth/password.ts";
import { setupTokenIsUsable, useSetupToken } from "../db/setup-tokens.ts";
import { type DashboardDeps, pageContext } from "../web/context.ts";
import { html } from "../web/html.ts";
import { csrfField, field, page } from "../web/layout.ts";
import { sendPage, signIn } from "../web/respond.ts";
import { formText, PasswordField } from "./auth-forms.ts";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function setupPage(res: Response, token: string, error?: string) {
  const context = pageContext(res, "/setup-password");
  return page(
    context,
    "Set your password",
    html`<p>Choose the password you will sign in to the dashboard with.</p>
<form method="post" action="/setup-password">
${csrfField(context)}
<input type="hidden" name="token" value="${token}">
${field({ id: "password", name: "password", label: "Password", type: "password", autocomplete: "new-password", hint: "At least 12 characters.", error, minlength: 12 })}
<button type="submit">Set password</button>
</form>`,
  );
}

function unusablePage(res: Response) {
  return page(
    pageContext(res, "/setup-password"),
    "This link cannot be used",
    html`<p>This password link is not valid any more: it was already used, it expired (links last 24 hours) or it was copied incompletely.</p>
<p>Ask your operator for a new link, or <a href="/signin">sign in</a> if you already set your password.</p>`,
  );
}

/** GET/POST /setup-password?token=: the one-time link of `admin dashboard-invite` (24 h, single use). */
export function setupPasswordRoutes(deps: DashboardDeps): Router {
  const router = Router();
  router.get("/setup-password", async (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : "";
    if (!TOKEN_PATTERN.test(token) || !(await setupTokenIsUsable(deps.db, token))) return sendPage(res, 410, unusablePage(res));
    sendPage(res, 200, setupPage(res, token));
  });
  router.post("/setup-password", async (req, res) => {
    const token = formText(req.body, "token");
    if (!TOKEN_PATTERN.test(token)) return sendPage(res, 410, unusablePage(res));
    const password = PasswordField.safeParse(formText(req.body, "password"));
    if (!password.success) return sendPage(res, 422, setupPage(res, token, password.error.issues[0]?.message));
    const user = await useSetupToken(deps.db, token, await hashPassword(password.data));
    if (!user) return sendPage(res, 410, unusablePage(res));
    deps.logger.info({ user_id: user.userId, account_id: user.accountId }, "dashboard password set through a setup link");
    await signIn(req, res, deps, user);
  });
  return router;
}
