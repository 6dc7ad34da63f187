import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { Request, Response } from "express";
import type { AccountBackend } from "../account/account-backend.ts";
import type { FilingBackends } from "../filing-backend/filing-backend.ts";

/**
 * public: no key (health). read: key + rate limit. submit: key + rate limit + JSON body +
 * Idempotency-Key. app.ts puts the matching middleware in front of each route.
 */
export type RouteKind = "public" | "read" | "submit";

export interface RouteDeps {
  backends: FilingBackends;
  account: AccountBackend;
}

export interface HandlerContext {
  req: Request;
  res: Response;
  deps: RouteDeps;
}

/** One endpoint: its OpenAPI operation, how it reads a request, and how it answers a valid one. */
export interface RouteSpec<I> {
  kind: RouteKind;
  /** The OpenAPI operation; `path` is relative to /api/v1 and uses `{param}`. */
  openapi: RouteConfig;
  /** Reads and validates headers, path, query and body; throws 400 VALIDATION_ERROR. */
  parse(req: Request): I;
  handle(input: I, context: HandlerContext): Promise<void>;
}

/** A route as app.ts mounts it: validation and handling as separate steps of the chain. */
export interface Route {
  kind: RouteKind;
  openapi: RouteConfig;
  /** Express's form of the path: `/filings/:filing_id`. */
  expressPath: string;
  validate(req: Request): void;
  handle(req: Request, res: Response, deps: RouteDeps): Promise<void>;
}

export function defineRoute<I>(spec: RouteSpec<I>): Route {
  const inputs = new WeakMap<Request, { input: I }>();
  return {
    kind: spec.kind,
    openapi: spec.openapi,
    expressPath: spec.openapi.path.replace(/\{([^}]+)\}/g, ":$1"),
    validate(req) {
      inputs.set(req, { input: spec.parse(req) });
    },
    handle(req, res, deps) {
      const parsed = inputs.get(req);
      if (!parsed) return Promise.reject(new Error(`${spec.openapi.method.toUpperCase()} ${spec.openapi.path}: validate() did not run before handle()`));
      return spec.handle(parsed.input, { req, res, deps });
    },
  };
}
