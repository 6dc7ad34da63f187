import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { type ErrorDetail, validationDetails } from "@dormant/contracts";
import type { Request } from "express";
import { z } from "zod";
import { invalidRequest } from "../http/validation.ts";

/**
 * What a route reads, each part a zod schema (omit the parts it does not read). `headers` names
 * each header as the OpenAPI document spells it (`Idempotency-Key`); it is read case-insensitively.
 */
export interface RequestSchemas {
  headers?: z.ZodObject;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
}

/** A route's declaration: some of the parts above (RouteSpec refuses any other key). */
export type RequestDeclaration = RequestSchemas & z.core.$ZodShape;

/** Makes a key of S that is not a request part (`parms`, `cookies`) a type error. */
export type OnlyRequestParts<S> = { [K in Exclude<keyof S, keyof RequestSchemas>]: never };

/** The validated request a handler receives: each declared part, as its schema outputs it. */
export type RequestInput<S extends RequestDeclaration> = z.output<z.ZodObject<S, z.core.$strip>>;

type Part = keyof RequestSchemas;

/**
 * The parts in the order their problems are listed, and the name a problem of a whole part is
 * given (a problem inside a part is named by its own path: `filing_id`, `credentials.x`).
 */
const PARTS: readonly { part: Part; root: string }[] = [
  { part: "headers", root: "headers" },
  { part: "params", root: "path" },
  { part: "query", root: "query" },
  { part: "body", root: "body" },
];

/** The values of the declared parts of `req`; headers by the names the schema declares. */
function requestParts(schemas: RequestSchemas, req: Request): Partial<Record<Part, unknown>> {
  const values: Partial<Record<Part, unknown>> = {};
  if (schemas.headers) values.headers = Object.fromEntries(Object.keys(schemas.headers.shape).map((name) => [name, req.get(name)]));
  if (schemas.params) values.params = req.params;
  if (schemas.query) values.query = req.query;
  if (schemas.body) values.body = req.body;
  return values;
}

/** One VALIDATION_ERROR detail list for the whole request, part by part in a fixed order. */
function requestDetails(error: z.ZodError): ErrorDetail[] {
  return PARTS.flatMap(({ part, root }) => {
    const issues = error.issues.filter((issue) => issue.path[0] === part).map((issue) => ({ ...issue, path: issue.path.slice(1) }));
    return issues.length === 0 ? [] : validationDetails(new z.ZodError(issues), root);
  });
}

/**
 * Validates a request against the route's schemas at once and returns the typed values; every
 * problem of every part is one 400 VALIDATION_ERROR.
 */
export function createRequestParser<S extends RequestDeclaration>(schemas: S): (req: Request) => RequestInput<S> {
  const unknown = Object.keys(schemas).filter((key) => !PARTS.some(({ part }) => part === key));
  if (unknown.length > 0) throw new Error(`not a request part: ${unknown.join(", ")}`);
  const schema = z.object(schemas);
  return (req) => {
    const result = schema.safeParse(requestParts(schemas, req));
    if (result.success) return result.data;
    throw invalidRequest(requestDetails(result.error));
  };
}

/** Bodies a route checks itself, and the schema each is documented with. */
const checkedByHandler = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A body that is never refused with 400: the handler receives `schema.safeParse(body)` and
 * decides what a body that breaks the schema means (the validate-only routes report it). The
 * OpenAPI document shows `schema`, so the declaration stays the one source of both.
 */
export function bodyCheckedByHandler<S extends z.ZodType>(schema: S) {
  const body = z.unknown().transform((value) => schema.safeParse(value));
  checkedByHandler.set(body, schema);
  return body;
}

/** The OpenAPI operation's `request`, from the same schemas (undefined when the route reads nothing). */
export function openApiRequest(schemas: RequestSchemas): RouteConfig["request"] {
  const { headers, params, query, body } = schemas;
  if (!headers && !params && !query && !body) return undefined;
  return {
    ...(headers ? { headers } : {}),
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(body ? { body: { required: true, content: { "application/json": { schema: checkedByHandler.get(body) ?? body } } } } : {}),
  };
}
