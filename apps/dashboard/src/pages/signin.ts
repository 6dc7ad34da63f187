import { type Response, Router } from "express";
import { z } from "zod";
import { dummyPasswordHash, verifyPassword } from "../auth/password.ts";
import { findUserByEmail, normaliseEmail } from "../db/users.ts";
import { clearSessionCookie } from "../web/cookies.ts";
import { type DashboardDeps, isSignedIn, pageContext, sessionOf } from "../web/context.ts";
import { html } from "../web/html.ts";
import { alertBox, csrfField, field, page } from "../web/layout.ts";
import { clientAddress, sendPage, signIn } from "../web/respond.ts";
import { ensureSession } from "../web/session.ts";
import { formText, pageRoute } from "../web/route.ts";
import { tryAgainIn } from "./auth-forms.ts";

export const WRONG_CREDENTIALS = "Email or password is wrong.";

function signInPage(res: Response, email: string, error?: string) {
  const context = pageContext(res, "/signin");
  const describedBy = error ? "form-error" : undefined;
  return page(
    context,
    "Sign in",
    html`${alertBox(error)}
<form method="post" action="/signin"${describedBy ? html` aria-describedby="${describedBy}"` : ""}>
${csrfField(context)}
${field({ id: "email", name: "email", label: "Email", type: "email", value: email, autocomplete: "username" })}
${field({ id: "password", name: "password", label: "Password", type: "password", autocomplete: "current-password" })}
<button type="submit">Sign in</button>
</form>
<p>New here? <a href="/signup">Create your account</a>.</p>`,
  );
}

/** GET/POST /signin (rate-limited per email and per address), POST /signout. */
export function signInRoutes(deps: DashboardDeps): Router {
  const router = Router();
  router.get("/signin", async (_req, res) => {
    if (isSignedIn(res)) return res.redirect(303, "/account");
    await ensureSession(res, deps);
    sendPage(res, 200, signInPage(res, ""));
  });
  router.post(
    "/signin",
    pageRoute({
      input: { form: z.object({ email: formText, password: formText }) },
      handle: async ({ form: { email: rawEmail, password } }, req, res) => {
        const email = normaliseEmail(rawEmail).slice(0, 254);
        const address = clientAddress(req);
        const verdict = await deps.limiter.attempt(email, address);
        if (!verdict.allowed) {
          res.setHeader("Retry-After", String(verdict.retryAfterSeconds));
          const message = `Too many sign-in attempts. ${tryAgainIn(verdict.retryAfterSeconds)}`;
          return sendPage(res, 429, signInPage(res, rawEmail, message));
        }
        const user = email ? await findUserByEmail(deps.db, email) : null;
        const hash = user?.passwordHash ?? (await dummyPasswordHash());
        const matches = (await verifyPassword(password, hash)) && user?.passwordHash != null;
        if (!user || !matches) return sendPage(res, 401, signInPage(res, rawEmail, WRONG_CREDENTIALS));
        await deps.limiter.succeeded(email, address);
        await signIn(req, res, deps, { userId: user.id, accountId: user.accountId });
      },
    }),
  );
  router.post("/signout", async (_req, res) => {
    await deps.sessions.destroy(sessionOf(res).id);
    clearSessionCookie(res, deps.secureCookies);
    res.redirect(303, "/signin");
  });
  return router;
}
