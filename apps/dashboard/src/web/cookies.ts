import type { CookieOptions, Request, Response } from "express";

export const SESSION_COOKIE = "dashboard_session";

/** The value of cookie `name` in the request's Cookie header (first one wins). */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Path=/, and Secure
 * when the dashboard is served over https or in production. A browser session cookie: the server
 * ends sessions (idle and absolute expiry in Redis).
 */
export function sessionCookieOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: "lax", path: "/", secure };
}

export function setSessionCookie(res: Response, id: string, secure: boolean): void {
  res.cookie(SESSION_COOKIE, id, sessionCookieOptions(secure));
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, sessionCookieOptions(secure));
}
