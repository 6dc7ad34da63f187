import type { Response } from "express";
import { AppError } from "@dormant/contracts";
import type { ApiKeyMode } from "../keys/format.ts";
import type { RateLimits } from "../rate-limit/limits.ts";

/** Who is calling: set on `res.locals.auth` by the auth middleware for every authenticated request. */
export interface AuthContext {
  accountId: string;
  keyId: string;
  /** "test" keys select sandbox mode. */
  mode: ApiKeyMode;
  /** The limits of this key: the account's overrides, else the defaults. */
  limits: RateLimits;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      auth?: AuthContext;
    }
  }
}

/** The caller of an authenticated route; a missing context is a wiring mistake, not a client error. */
export function requireAuth(res: Response): AuthContext {
  const auth = res.locals.auth;
  if (!auth)
    throw new AppError("INTERNAL_ERROR", "Internal error", { cause: new Error("auth middleware not mounted before this handler") });
  return auth;
}
