import { randomUUID } from "node:crypto";
import { REQUEST_ID_HEADER } from "@dormant/contracts";
import { runWithRequestContext } from "@dormant/service-kit";
import type { RequestHandler, Response } from "express";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId?: string;
    }
  }
}

/**
 * Gives every request an id: the caller's `X-Request-Id` when it is a uuid, else a new one. It
 * is echoed in the `X-Request-Id` header of every response, put in the envelope of submit and
 * error responses, and carried by every log line (request context) and bus message.
 */
export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const offered = req.get(REQUEST_ID_HEADER);
    const requestId = offered !== undefined && UUID.test(offered) ? offered.toLowerCase() : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    runWithRequestContext({ requestId }, next);
  };
}

/** The id given by requestIdMiddleware (mounted first, so always present). */
export function requestIdOf(res: Response): string {
  const id = res.locals.requestId;
  if (id === undefined) throw new Error("requestIdMiddleware is not mounted");
  return id;
}
