import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * Several middleware run as one Express handler, in order, with Express's own contract: a
 * handler continues the chain with `next()`, fails it with `next(error)` (or `next("route")` /
 * `next("router")`, passed on unchanged), by throwing, or by returning a promise that rejects.
 * After the last one calls `next()`, the composed handler calls its own `next()`.
 *
 * Why: each Express layer costs a step of the router (matching, promise wrapping, bookkeeping)
 * on every request; a route's chain composed into one handler costs one.
 */
export function compose(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0]!;
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      // As Express: any truthy argument ends the chain (an error, "route" or "router").
      if (error) return done(error);
      const handler = handlers[index++];
      if (handler === undefined) return done();
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.then(undefined, (rejection: unknown) => next(rejection || new Error("Rejected promise")));
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}
