import type { Response } from "express";
import type { Logger } from "@dormant/service-kit";
import type { SignInRateLimiter } from "../auth/rate-limit.ts";
import type { Session, SessionStore } from "../auth/sessions.ts";
import type { GatewayClient } from "../bus/gateway.ts";
import type { DashboardDb } from "../db/client.ts";
import type { PageContext } from "./layout.ts";

/** What the routes need. */
export interface DashboardDeps {
  db: DashboardDb;
  sessions: SessionStore;
  limiter: SignInRateLimiter;
  gateway: GatewayClient;
  logger: Logger;
  secureCookies: boolean;
}

/**
 * The request's session: every POST has one (the session middleware refuses a POST without), and
 * so does a page with a form once `ensureSession` ran. Throws for a request without one.
 */
export function sessionOf(res: Response): Session {
  const session = optionalSessionOf(res);
  if (!session) throw new Error("no session: only POSTs and pages with a form (ensureSession) have one");
  return session;
}

/** The request's session if its cookie named one (a signed-out visitor has none until a form needs it). */
export function optionalSessionOf(res: Response): Session | undefined {
  return res.locals.session as Session | undefined;
}

/** Whether the request comes from a signed-in session. */
export function isSignedIn(res: Response): boolean {
  return optionalSessionOf(res)?.data.userId !== undefined;
}

/** The signed-in session's account (requireSignIn ran first). */
export function accountOf(res: Response): string {
  const accountId = sessionOf(res).data.accountId;
  if (!accountId) throw new Error("not signed in");
  return accountId;
}

/** What the layout needs; a page without a session has no token (and so must have no form). */
export function pageContext(res: Response, path: string): PageContext {
  const session = optionalSessionOf(res);
  return { csrf: session?.data.csrf ?? "", signedIn: session?.data.userId !== undefined, path };
}
