import express, { type NextFunction, type Request, type Response } from "express";
import request from "supertest";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { html } from "./html.ts";
import { sendPage } from "./respond.ts";
import { formList, formText, oneOf, pageNumber, pageRoute, queryFlag, queryText } from "./route.ts";

/** A small app with the dashboard's form parser: each route answers what its handler received. */
function app() {
  const received: unknown[] = [];
  const server = express();
  server.use(express.urlencoded({ extended: false, limit: "16kb", parameterLimit: 20 }));
  server.get(
    "/things/:id",
    pageRoute({
      input: {
        params: z.object({ id: z.string().regex(/^thg_[a-z0-9]{4}$/) }),
        query: z.object({ page: pageNumber(10_000), mode: oneOf(["live", "test"]), q: queryText, done: queryFlag }),
      },
      handle: ({ params, query }, _req, res) => {
        expectTypeOf(params.id).toEqualTypeOf<string>();
        expectTypeOf(query.page).toEqualTypeOf<number>();
        expectTypeOf(query.mode).toEqualTypeOf<"live" | "test" | undefined>();
        expectTypeOf(query.q).toEqualTypeOf<string | undefined>();
        expectTypeOf(query.done).toEqualTypeOf<boolean>();
        received.push({ params, query });
        res.json({ params, query });
      },
    }),
  );
  server.post(
    "/things/:id/rename",
    pageRoute({
      input: { params: z.object({ id: z.string().regex(/^thg_[a-z0-9]{4}$/) }), form: z.object({ name: formText, tags: formList }) },
      invalid: (res, error) => sendPage(res, 422, html`<p>refused: ${error.issues.map((issue) => issue.path.join(".")).join(",")}</p>`),
      handle: async ({ params, form }, _req, res) => {
        expectTypeOf(form.name).toEqualTypeOf<string>();
        expectTypeOf(form.tags).toEqualTypeOf<string[]>();
        received.push({ params, form });
        res.json({ params, form });
      },
    }),
  );
  server.get(
    "/fails",
    pageRoute({
      input: {},
      handle: async () => {
        throw new Error("handler failed");
      },
    }),
  );
  server.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ caught: error.message });
  });
  return { server, received };
}

describe("pageRoute: a dashboard route's input, declared once", () => {
  it("gives the handler the parsed, typed values of params, query and form", async () => {
    const { server, received } = app();
    const got = await request(server).get("/things/thg_ab12?page=3&mode=test&q=%20hello%20&done=1");
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ params: { id: "thg_ab12" }, query: { page: 3, mode: "test", q: "hello", done: true } });

    const posted = await request(server).post("/things/thg_ab12/rename").type("form").send("name=Box&tags=a&tags=b&tags=c");
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ params: { id: "thg_ab12" }, form: { name: "Box", tags: ["a", "b", "c"] } });
    expect(received).toHaveLength(2);
  });

  it("answers input its schemas refuse with the 404 page by default, without calling the handler", async () => {
    const { server, received } = app();
    const response = await request(server).get("/things/not-a-thing?page=2");
    expect(response.status).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.text).toContain("Page not found");
    expect(received).toEqual([]);
  });

  it("answers with the route's own `invalid` page when it declares one", async () => {
    const { server, received } = app();
    const response = await request(server).post("/things/THG_AB12/rename").type("form").send("name=Box");
    expect(response.status).toBe(422);
    expect(response.text).toBe("<p>refused: params.id</p>");
    expect(received).toEqual([]);
  });

  it("reads lenient fields as the forms always did: missing or repeated text is empty, a lone checkbox a list", async () => {
    const { server } = app();
    const repeated = await request(server).post("/things/thg_ab12/rename").type("form").send("name=a&name=b&tags=only");
    expect(repeated.body.form).toEqual({ name: "", tags: ["only"] });
    const empty = await request(server).post("/things/thg_ab12/rename").type("form").send("");
    expect(empty.body.form).toEqual({ name: "", tags: [] });
    const lenient = await request(server).get("/things/thg_ab12?mode=LIVE&q=%20%20&done=yes&q2=x");
    expect(lenient.body.query).toEqual({ page: 1, done: false });
  });

  it("passes a handler's failure to the error handlers", async () => {
    const { server } = app();
    const response = await request(server).get("/fails");
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ caught: "handler failed" });
  });

  it("refuses a declaration with a part it does not read", () => {
    // @ts-expect-error `body` is not a page input part (`form` is).
    expect(() => pageRoute({ input: { body: z.object({}) }, handle: () => undefined })).toThrow("not a page input part: body");
  });
});

describe("pageNumber: the one ?page= reader of every paged page", () => {
  const read = (maxPage: number, value: unknown) => pageNumber(maxPage).parse(value);

  it("reads a positive whole number, spaces around it ignored", () => {
    expect(read(100_000, "1")).toBe(1);
    expect(read(100_000, "42")).toBe(42);
    expect(read(100_000, " 7 ")).toBe(7);
  });

  it("reads anything else as page 1", () => {
    for (const value of [undefined, "", "0", "-1", "01", "2x", "1.5", "1e3", ["2", "3"], "abc"]) expect(read(100_000, value)).toBe(1);
  });

  it("reads a page beyond the last as the last, and a number longer than the last's as page 1", () => {
    expect(read(100_000, "999999")).toBe(100_000);
    expect(read(100_000, "1000000")).toBe(1);
    expect(read(10_000, "99999")).toBe(10_000);
    expect(read(10_000, "100000")).toBe(1);
  });
});
