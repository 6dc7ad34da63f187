import { type Response, Router } from "express";
import { z } from "zod";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import type { SignUpRateLimiter } from "../auth/rate-limit.ts";
import { randomToken, safeEqual } from "../auth/tokens.ts";
import { findUserByEmail, insertUser, normaliseEmail } from "../db/users.ts";
import { type DashboardDeps, pageContext, sessionOf } from "../web/context.ts";
import { html } from "../web/html.ts";
import { alertBox, csrfField, field, page } from "../web/layout.ts";
import { clientAddress, sendPage, signIn } from "../web/respond.ts";
import { ensureSession } from "../web/session.ts";
import { formText, pageRoute } from "../web/route.ts";
import { EmailField, fieldErrors, PasswordField, tryAgainIn } from "./auth-forms.ts";

const SignUpForm = z.object({
  name: z.string().trim().min(1, "Enter your agency's name.").max(200, "Agency name must be at most 200 characters."),
  email: EmailField,
  password: PasswordField,
  /** Made when the form is shown: a retried submit of the same form opens the same account. */
  request_id: z.string().regex(/^[A-Za-z0-9_-]{16,100}$/, "The form is incomplete; reload the page and try again."),
});

const EMAIL_TAKEN = "An account with this email already exists. Sign in instead.";
const FORM_EXPIRED = "This form has expired; reload the page and try again.";

/**
 * The session's sign-up request id (made, and kept in the session, the first time it shows the
 * form): the idempotency key of the account its sign-up opens, so a retried or reloaded form in
 * the same session opens one account, and a request id from another session opens nothing.
 */
async function signUpRequestIdOf(res: Response, deps: DashboardDeps): Promise<string> {
  const session = await ensureSession(res, deps);
  if (session.data.signupRequestId) return session.data.signupRequestId;
  session.data.signupRequestId = randomToken();
  await deps.sessions.save(session);
  return session.data.signupRequestId;
}

interface SignUpView {
  values: { name: string; email: string; request_id: string };
  errors: Record<string, string | undefined>;
}

function signUpPage(res: Response, view: SignUpView) {
  const { values, errors } = view;
  return page(
    pageContext(res, "/signup"),
    "Create your account",
    html`${alertBox(errors.form ?? errors.request_id)}
<form method="post" action="/signup" novalidate>
${csrfField(pageContext(res, "/signup"))}
<input type="hidden" name="request_id" value="${values.request_id}">
${field({ id: "name", name: "name", label: "Agency name", value: values.name, autocomplete: "organization", error: errors.name, maxlength: 200 })}
${field({ id: "email", name: "email", label: "Email", type: "email", value: values.email, autocomplete: "email", error: errors.email })}
${field({
  id: "password",
  name: "password",
  label: "Password",
  type: "password",
  autocomplete: "new-password",
  hint: "At least 12 characters.",
  error: errors.password,
  minlength: 12,
})}
<button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="/signin">Sign in</a>.</p>`,
  );
}

export interface SignUpOptions {
  /** New accounts per client address and window; without it sign-ups are not limited (tests that sign up many agents). */
  limiter?: SignUpRateLimiter | undefined;
}

/**
 * GET/POST /signup: a new gateway account (gateway.create_account) and its first user, then
 * signed in. A well-formed submit of this session's form counts against its address's sign-up
 * limit before anything is looked up (a taken email included, so the form cannot be used to test
 * emails without limit); over it: 429 with when to try again, nothing created.
 */
export function signUpRoutes(deps: DashboardDeps, options: SignUpOptions = {}): Router {
  const router = Router();
  router.get("/signup", async (_req, res) => {
    const requestId = await signUpRequestIdOf(res, deps);
    sendPage(res, 200, signUpPage(res, { values: { name: "", email: "", request_id: requestId }, errors: {} }));
  });
  router.post(
    "/signup",
    pageRoute({
      input: { form: z.object({ name: formText, email: formText, password: formText, request_id: formText }) },
      handle: async ({ form: sent }, req, res) => {
        const requestId = await signUpRequestIdOf(res, deps);
        // A re-shown form carries this session's request id, whatever was sent.
        const values = { name: sent.name, email: sent.email, request_id: requestId };
        const parsed = SignUpForm.safeParse(sent);
        if (!parsed.success) return sendPage(res, 422, signUpPage(res, { values, errors: fieldErrors(parsed.error) }));
        // Only the form this session showed may open its account (another session's request id would
        // answer that session's account).
        if (!safeEqual(parsed.data.request_id, sessionOf(res).data.signupRequestId ?? ""))
          return sendPage(res, 422, signUpPage(res, { values, errors: { form: FORM_EXPIRED } }));
        const form = parsed.data;
        const address = clientAddress(req);
        const verdict = (await options.limiter?.attempt(address)) ?? { allowed: true };
        if (!verdict.allowed) {
          res.setHeader("Retry-After", String(verdict.retryAfterSeconds));
          const message = `Too many accounts have been created from your network. ${tryAgainIn(verdict.retryAfterSeconds)}`;
          return sendPage(res, 429, signUpPage(res, { values, errors: { form: message } }));
        }
        const email = normaliseEmail(form.email);
        const existing = await findUserByEmail(deps.db, email);
        if (existing) return sendPage(res, 409, signUpPage(res, { values, errors: { email: EMAIL_TAKEN } }));
        const passwordHash = await hashPassword(form.password);
        let account: Awaited<ReturnType<typeof deps.gateway.createAccount>>;
        try {
          account = await deps.gateway.createAccount(`dashboard-signup-${requestId}`, form.name);
        } catch (error) {
          await options.limiter?.failed(address).catch(() => undefined);
          throw error;
        }
        const user = await insertUser(deps.db, { email, passwordHash, accountId: account.account_id });
        if (user) {
          deps.logger.info({ user_id: user.id, account_id: account.account_id }, "dashboard sign-up");
          await signIn(req, res, deps, { userId: user.id, accountId: account.account_id });
          return;
        }
        // The email was taken meanwhile: by this very sign-up retried (same account, same password) or by someone else.
        const winner = await findUserByEmail(deps.db, email);
        if (winner?.accountId === account.account_id && winner.passwordHash && (await verifyPassword(form.password, winner.passwordHash))) {
          await signIn(req, res, deps, { userId: winner.id, accountId: winner.accountId });
          return;
        }
        sendPage(res, 409, signUpPage(res, { values, errors: { email: EMAIL_TAKEN } }));
      },
    }),
  );
  return router;
}
