import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { compose } from "./compose.ts";

/** An app whose route is `compose(handlers)`, followed by a fallback route and an error renderer. */
function appWith(handlers: RequestHandler[]) {
  const app = express();
  app.get("/x", compose(handlers));
  app.get("/x", (_req, res) => void res.json({ fallback: true, steps: res.locals.steps ?? [] }));
  const renderErrors: ErrorRequestHandler = (error, _req, res, _next) =>
    void res.status(500).json({ error: error instanceof Error ? error.message : String(error), steps: res.locals.steps ?? [] });
  app.use(renderErrors);
  return app;
}

const step =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.steps = [...((res.locals.steps as string[] | undefined) ?? []), name];
    next();
  };
const asyncStep =
  (name: string): RequestHandler =>
  async (req, res, next) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    step(name)(req, res, next);
  };
const answer: RequestHandler = (_req, res) => void res.json({ steps: res.locals.steps });

describe("compose", () => {
  it("runs the handlers in order, synchronous and asynchronous, until one answers", async () => {
    const response = await request(appWith([step("a"), asyncStep("b"), step("c"), answer, step("never")])).get("/x");
    expect(response.body).toEqual({ steps: ["a", "b", "c"] });
  });

  it("continues with the next route once the last handler calls next()", async () => {
    expect((await request(appWith([step("a"), asyncStep("b")])).get("/x")).body).toEqual({ fallback: true, steps: ["a", "b"] });
  });

  it("stops at a thrown error, next(error) or a rejected promise, and hands it to the error handlers", async () => {
    const thrown: RequestHandler = () => {
      throw new Error("thrown");
    };
    const passed: RequestHandler = (_req, _res, next) => next(new Error("passed"));
    const rejected: RequestHandler = async () => {
      await Promise.resolve();
      throw new Error("rejected");
    };
    const rejectedEmpty: RequestHandler = () => Promise.reject(undefined);
    for (const [failing, message] of [
      [thrown, "thrown"],
      [passed, "passed"],
      [rejected, "rejected"],
      [rejectedEmpty, "Rejected promise"],
    ] as const) {
      const response = await request(appWith([step("a"), failing, step("never"), answer])).get("/x");
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: message, steps: ["a"] });
    }
  });

  it("passes next('route') on, skipping the rest of the chain", async () => {
    const skip: RequestHandler = (_req, _res, next) => next("route");
    expect((await request(appWith([step("a"), skip, step("never"), answer])).get("/x")).body).toEqual({ fallback: true, steps: ["a"] });
  });
});
