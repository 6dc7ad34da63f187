import type { Request, RequestHandler, Response } from "express";
import { z } from "zod";
import { errorPage } from "./error-pages.ts";
import { sendPage } from "./respond.ts";

/**
 * What a page reads, each part a zod schema (omit the parts it does not read): `params` (the
 * path's `:names`), `query` and `form` (the urlencoded body; a request without one is read as an
 * empty form).
 */
export interface PageInputSchemas {
  params?: z.ZodObject;
  query?: z.ZodObject;
  form?: z.ZodObject;
}

/** A route's declaration: some of the parts above (pageRoute refuses any other key). */
export type PageInputDeclaration = PageInputSchemas & z.core.$ZodShape;

/** Makes a key of S that is not an input part (`body`, `cookies`) a type error. */
export type OnlyPageInputParts<S> = { [K in Exclude<keyof S, keyof PageInputSchemas>]: never };

/** The validated input a handler receives: each declared part, as its schema outputs it. */
export type PageInput<S extends PageInputDeclaration> = z.output<z.ZodObject<S, z.core.$strip>>;

export interface PageRouteSpec<S extends PageInputDeclaration> {
  /** What the route reads, declared once: the handler receives it parsed and typed. */
  input: S & OnlyPageInputParts<S>;
  /**
   * The answer to input the schemas refuse (a malformed id, an unknown document type): by default
   * the 404 page, as for an address that names nothing. Fields a form re-shows with its own
   * messages are read leniently (formText, queryText) and checked by the handler instead.
   */
  invalid?: (res: Response, error: z.ZodError) => void | Promise<void>;
  handle(input: PageInput<S>, req: Request, res: Response): void | Promise<void>;
}

const PARTS = ["params", "query", "form"] as const;

/**
 * A dashboard route's handler from its declared input, in the way the gateway's `defineRoute`
 * declares an endpoint's: the request's params, query and form parsed at once, then the handler
 * called with the typed values, or the route's `invalid` answer (the 404 page by default).
 * Session, CSRF and sign-in checks stay in the middleware in front of it (src/app.ts).
 */
export function pageRoute<S extends PageInputDeclaration>(spec: PageRouteSpec<S>): RequestHandler {
  const unknown = Object.keys(spec.input).filter((key) => !(PARTS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new Error(`not a page input part: ${unknown.join(", ")}`);
  const schema = z.object(spec.input as S);
  return async (req, res) => {
    const values: Partial<Record<(typeof PARTS)[number], unknown>> = {};
    if (spec.input.params) values.params = req.params;
    if (spec.input.query) values.query = req.query;
    if (spec.input.form) values.form = req.body ?? {};
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      if (spec.invalid) return spec.invalid(res, parsed.error);
      return sendPage(res, 404, errorPage("not_found"));
    }
    return spec.handle(parsed.data, req, res);
  };
}

/** The text of a form field or query parameter as sent; missing or repeated: the empty string. */
export const formText = z.preprocess((value) => (typeof value === "string" ? value : ""), z.string());

/** A form's checkbox values (one value, several, or none), the non-text ones left out. */
export const formList = z.preprocess(
  (value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item) => typeof item === "string"),
  z.array(z.string()),
);

/** A query parameter's text, trimmed; missing, repeated or blank: undefined. */
export const queryText = z.preprocess((value) => {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}, z.string().optional());

/** `?name=1` (the notices after a redirect): true; anything else false. */
export const queryFlag = z.preprocess((value) => value === "1", z.boolean());

/** One of `values` as sent, or undefined (missing, repeated or anything else: never refused). */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && (values as readonly string[]).includes(value) ? value : undefined),
    z.enum(values).optional(),
  );
}

/**
 * `?page=N` of every paged page: a positive whole number (spaces around it ignored) of at most as
 * many digits as `maxPage` has, read as `maxPage` beyond it (offsets stay small); anything else
 * (missing, repeated, `0`, `-1`, `2x`, too long) is page 1.
 */
export function pageNumber(maxPage: number) {
  const pattern = new RegExp(`^[1-9]\\d{0,${String(maxPage).length - 1}}$`);
  return z.preprocess((value) => {
    const text = typeof value === "string" ? value.trim() : "";
    return pattern.test(text) ? Math.min(Number(text), maxPage) : 1;
  }, z.number().int().min(1));
}
