import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { Request, Response } from "express";
import type { AccountBackend } from "../account/account-backend.ts";
import type { FilingBackends } from "../filing-backend/filing-backend.ts";
import type { WebhookBackend } from "../webhooks/webhook-backend.ts";
import {
  createRequestParser,
  openApiRequest,
  type OnlyRequestParts,
  type RequestDeclaration,
  type RequestInput,
} from "./request-schemas.ts";

/**
 * public: no key (health). read: key + rate limit (GETs). submit: key + rate limit + JSON body +
 * Idempotency-Key (the filings). json: key + rate limit + JSON body, no Idempotency-Key (the
 * webhook endpoint creation, which the notifier answers). check: json plus the account's
 * validation limit (the validate-only routes, which change nothing but run HMRC's rules). action: key + rate limit, no body read and no Idempotency-Key (DELETE and the POSTs
 * that take no body: rotate a secret, send a test event). app.ts puts the matching middleware in
 * front of each route.
 */
export type RouteKind = "public" | "read" | "submit" | "json" | "check" | "action";

export interface RouteDeps {
  backends: FilingBackends;
  account: AccountBackend;
  webhooks: WebhookBackend;
}

export interface HandlerContext {
  req: Request;
  res: Response;
  deps: RouteDeps;
}

/**
 * One endpoint: its OpenAPI operation, the schemas of what it reads (declared once: they validate
 * the request and become the operation's `request`), and how it answers a valid request.
 */
export interface RouteSpec<S extends RequestDeclaration> {
  kind: RouteKind;
  /** The OpenAPI operation without its `request`; `path` is relative to /api/v1 and uses `{param}`. */
  openapi: Omit<RouteConfig, "request">;
  /** What the route reads: `headers`, `params`, `query`, `body` (`{}`: nothing). */
  request: S & OnlyRequestParts<S>;
  /** Called with the validated (and transformed) values, typed by the schemas. */
  handle(input: RequestInput<S>, context: HandlerContext): Promise<void>;
}

/** A route as app.ts mounts it: validation and handling as separate steps of the chain. */
export interface Route {
  kind: RouteKind;
  openapi: RouteConfig;
  /** Express's form of the path: `/filings/:filing_id`. */
  expressPath: string;
  /** Throws 400 VALIDATION_ERROR listing every problem of every part of the request. */
  validate(req: Request): void;
  handle(req: Request, res: Response, deps: RouteDeps): Promise<void>;
}

export function defineRoute<S extends RequestDeclaration>(spec: RouteSpec<S>): Route {
  const parse = createRequestParser<S>(spec.request);
  const request = openApiRequest(spec.request);
  const inputs = new WeakMap<Request, { input: RequestInput<S> }>();
  return {
    kind: spec.kind,
    openapi: request ? { ...spec.openapi, request } : spec.openapi,
    expressPath: spec.openapi.path.replace(/\{([^}]+)\}/g, ":$1"),
    validate(req) {
      inputs.set(req, { input: parse(req) });
    },
    handle(req, res, deps) {
      const parsed = inputs.get(req);
      if (!parsed)
        return Promise.reject(
          new Error(`${spec.openapi.method.toUpperCase()} ${spec.openapi.path}: validate() did not run before handle()`),
        );
      return spec.handle(parsed.input, { req, res, deps });
    },
  };
}
