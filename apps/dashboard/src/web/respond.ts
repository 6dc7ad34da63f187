import type { Request, Response } from "express";
import type { Session, SessionStore } from "../auth/sessions.ts";
import { setSessionCookie } from "./cookies.ts";
import { sessionOf } from "./context.ts";
import type { SafeHtml } from "./html.ts";

/** Sends a page: never cached (pages carry CSRF tokens, sometimes a key's secret). */
export function sendPage(res: Response, status: number, body: SafeHtml): void {
  res.status(status).setHeader("Cache-Control", "no-store").type("html").send(body.text);
}

/**
 * Signs `user` in: a new session (new id and CSRF token: no fixation), the old one destroyed, the
 * cookie replaced, then to /account.
 */
export async function signIn(
  _req: Request,
  res: Response,
  deps: { sessions: SessionStore; secureCookies: boolean },
  user: { userId: string; accountId: string },
): Promise<Session> {
  const old = sessionOf(res);
  const session = await deps.sessions.create({ userId: user.userId, accountId: user.accountId });
  await deps.sessions.destroy(old.id);
  setSessionCookie(res, session.id, deps.secureCookies);
  res.locals.session = session;
  res.redirect(303, "/account");
  return session;
}

/** The client's address for rate limits (the socket's, or X-Forwarded-For's per the trust proxy setting). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}
