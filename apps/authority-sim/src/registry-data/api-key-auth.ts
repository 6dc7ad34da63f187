import { timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";

/** The API key a request presents: the user name of HTTP basic auth (password ignored). */
export function basicAuthUser(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon === -1 ? decoded : decoded.slice(0, colon);
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 401 unless the request carries the configured API key as its basic-auth user name. */
export function apiKeyAuth(expectedKey: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const key = basicAuthUser(req.get("authorization"));
    if (key === undefined || !sameKey(key, expectedKey)) {
      res.status(401).json({ error: "Invalid Authorization", type: "ch:service" });
      return;
    }
    res.locals.apiKey = key;
    next();
  };
}
