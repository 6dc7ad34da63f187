import type { NextFunction, Request, Response } from "express";
import type { SessionStore } from "../auth/sessions.ts";
import { safeEqual } from "../auth/tokens.ts";
import { readCookie, setSessionCookie } from "./cookies.ts";
import { sessionOf } from "./context.ts";
import { errorPage } from "./error-pages.ts";

/**
 * Loads the session named by the cookie; a request without one (or with an ended one) gets a new,
 * signed-out session, so that every form (sign-in and sign-up included) carries a CSRF token.
 */
export function sessionMiddleware(sessions: SessionStore, secureCookies: boolean) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const id = readCookie(req, "dashboard_session");
    let session = id ? await sessions.get(id) : null;
    if (!session) {
      if (req.method === "POST") {
        // Nothing to check a token against: refused like a wrong token.
        res
          .status(403)
          .type("html")
          .send(String(errorPage("csrf")));
        return;
      }
      session = await sessions.create();
      setSessionCookie(res, session.id, secureCookies);
    }
    res.locals.session = session;
    next();
  };
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
  if (sessionOf(res).data.userId === undefined) {
    res.redirect(303, "/signin");
    return;
  }
  next();
}
