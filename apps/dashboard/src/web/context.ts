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

/** The request's session (the session middleware made sure there is one). */
export function sessionOf(res: Response): Session {
  return res.locals.session as Session;
}

/** The signed-in session's account (requireSignIn ran first). */
export function accountOf(res: Response): string {
  const accountId = sessionOf(res).data.accountId;
  if (!accountId) throw new Error("not signed in");
  return accountId;
}

export function pageContext(res: Response, path: string): PageContext {
  const session = sessionOf(res);
  return { csrf: session.data.csrf, signedIn: session.data.userId !== undefined, path };
}
