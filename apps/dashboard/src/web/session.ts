import type { NextFunction, Request, Response } from "express";
import type { Session, SessionStore } from "../auth/sessions.ts";
import { safeEqual } from "../auth/tokens.ts";
import { readCookie, setSessionCookie } from "./cookies.ts";
import { isSignedIn, optionalSessionOf, sessionOf } from "./context.ts";
import { errorPage } from "./error-pages.ts";

/**
 * Loads the session named by the cookie, if any. A request without one (or with an ended one) gets
 * none here: a signed-out visitor's session is made only by a page with a form (`ensureSession`:
 * sign-in, sign-up, a usable set-password link), so the landing redirect, 404s and other GETs
 * write nothing to Redis. A POST without a session is refused like a wrong CSRF token.
 */
export function sessionMiddleware(sessions: SessionStore) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const id = readCookie(req, "dashboard_session");
    const session = id ? await sessions.get(id) : null;
    if (!session && req.method === "POST") {
      // Nothing to check a token against: refused like a wrong token.
      res
        .status(403)
        .type("html")
        .send(String(errorPage("csrf")));
      return;
    }
    if (session) res.locals.session = session;
    next();
  };
}

/**
 * The session a page with a form needs (its CSRF token): the request's own, or a new signed-out
 * one with its cookie set. Only such pages call it.
 */
export async function ensureSession(res: Response, deps: { sessions: SessionStore; secureCookies: boolean }): Promise<Session> {
  const existing = optionalSessionOf(res);
  if (existing) return existing;
  const session = await deps.sessions.create();
  setSessionCookie(res, session.id, deps.secureCookies);
  res.locals.session = session;
  return session;
}

/** Every POST carries the session's CSRF token in `_csrf`: compared in constant time, else 403. */
export function csrfProtection(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== "POST") {
    next();
    return;
  }
  const sent = typeof req.body?._csrf === "string" ? req.body._csrf : "";
  if (!sent || !safeEqual(sent, sessionOf(res).data.csrf)) {
    res
      .status(403)
      .type("html")
      .send(String(errorPage("csrf")));
    return;
  }
  next();
}

/** Pages for signed-in users: others go to /signin. */
export function requireSignIn(_req: Request, res: Response, next: NextFunction): void {
  if (!isSignedIn(res)) {
    res.redirect(303, "/signin");
    return;
  }
  next();
}
