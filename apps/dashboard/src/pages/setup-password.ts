import { type Response, Router } from "express";
import { z } from "zod";
import { hashPassword } from "../auth/password.ts";
import { setupTokenIsUsable, useSetupToken } from "../db/setup-tokens.ts";
import { type DashboardDeps, pageContext } from "../web/context.ts";
import { html } from "../web/html.ts";
import { csrfField, field, page } from "../web/layout.ts";
import { clientAddress, sendPage, signIn } from "../web/respond.ts";
import { ensureSession } from "../web/session.ts";
import { formText, pageRoute } from "../web/route.ts";
import { PasswordField, tryAgainIn } from "./auth-forms.ts";

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

function tooManyPage(res: Response, retryAfterSeconds: number) {
  return page(
    pageContext(res, "/setup-password"),
    "Too many attempts",
    html`<p class="alert" role="alert" id="form-error">Too many attempts to set a password. ${tryAgainIn(retryAfterSeconds)}</p>
<p>Nothing was changed. Use the link again later, or ask your operator for a new one.</p>`,
  );
}

/**
 * GET/POST /setup-password?token=: the one-time link of `admin dashboard-invite` (24 h, single use).
 * A submit counts against its address's limit first (429 over it), then its token is checked
 * (unknown, used or expired: 410 without hashing anything), and only then is the password hashed
 * and the token used, atomically.
 */
export function setupPasswordRoutes(deps: DashboardDeps): Router {
  const router = Router();
  router.get(
    "/setup-password",
    pageRoute({
      input: { query: z.object({ token: formText }) },
      handle: async ({ query: { token } }, _req, res) => {
        if (!TOKEN_PATTERN.test(token) || !(await setupTokenIsUsable(deps.db, token))) return sendPage(res, 410, unusablePage(res));
        await ensureSession(res, deps);
        sendPage(res, 200, setupPage(res, token));
      },
    }),
  );
  router.post(
    "/setup-password",
    pageRoute({
      input: { form: z.object({ token: formText, password: formText }) },
      handle: async ({ form }, req, res) => {
        const verdict = await deps.limiter.passwordSetupAttempt(clientAddress(req));
        if (!verdict.allowed) {
          res.setHeader("Retry-After", String(verdict.retryAfterSeconds));
          return sendPage(res, 429, tooManyPage(res, verdict.retryAfterSeconds));
        }
        const { token } = form;
        // The token first: a bad one costs a lookup, never a password hash.
        if (!TOKEN_PATTERN.test(token) || !(await setupTokenIsUsable(deps.db, token))) return sendPage(res, 410, unusablePage(res));
        const password = PasswordField.safeParse(form.password);
        if (!password.success) return sendPage(res, 422, setupPage(res, token, password.error.issues[0]?.message));
        const user = await useSetupToken(deps.db, token, await hashPassword(password.data));
        if (!user) return sendPage(res, 410, unusablePage(res));
        deps.logger.info({ user_id: user.userId, account_id: user.accountId }, "dashboard password set through a setup link");
        await signIn(req, res, deps, user);
      },
    }),
  );
  return router;
}
