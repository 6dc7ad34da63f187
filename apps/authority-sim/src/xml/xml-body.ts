import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from "express";

const XML_TYPES = ["text/xml", "application/xml"];

/**
 * Reads an XML request body as text: only `text/xml` or `application/xml` (else 415), at most
 * `maxBytes` (else 413). The handler finds the text in `req.body`.
 */
export function xmlBody(maxBytes: number): RequestHandler[] {
  const requireXml: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!req.is(XML_TYPES)) {
      res.status(415).type("text/plain").send("Unsupported Media Type: send text/xml or application/xml");
      return;
    }
    next();
  };
  return [requireXml, express.text({ type: XML_TYPES, limit: maxBytes, defaultCharset: "utf-8" })];
}

/** Answers body-reading failures (too large, bad charset) in plain text. */
export const xmlBodyErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const status = (error as { status?: number; type?: string }).status;
  if (status === 413) {
    res.status(413).type("text/plain").send("Payload Too Large");
    return;
  }
  if (status !== undefined && status >= 400 && status < 500) {
    res.status(status).type("text/plain").send("Bad Request");
    return;
  }
  next(error);
};

/**
 * True when the text declares a document type or entities. Neither authority uses them, and
 * refusing them before parsing rules out entity-expansion and external-entity (XXE) attacks.
 */
export function declaresDoctype(xml: string): boolean {
  return /<!DOCTYPE|<!ENTITY/i.test(xml);
}

/**
 * Sends an XML answer (HTTP 200, `text/xml; charset=utf-8`, its length) as Express's `send`
 * would, without the ETag `send` computes over every answer (a SHA-1 of the body: neither
 * authority sends one on these POST answers, and no client makes conditional requests here).
 */
export function sendXml(res: Response, xml: string): void {
  const body = Buffer.from(xml, "utf8");
  res
    .status(200)
    .set({ "Content-Type": "text/xml; charset=utf-8", "Content-Length": String(body.length) })
    .end(body);
}
