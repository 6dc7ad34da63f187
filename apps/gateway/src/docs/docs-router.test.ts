import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("/docs", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "docs" });
  });
  afterAll(() => gw?.close());

  it("redirects /docs to /docs/, whose assets are relative to it", async () => {
    const response = await request(gw.app).get("/docs");
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe("/docs/");
  });

  it("serves a page that loads only assets of this server, all of which are served (works offline)", async () => {
    const page = await request(gw.app).get("/docs/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const references = [...page.text.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map((m) => m[1]!);
    expect(references.length).toBeGreaterThan(3);
    for (const reference of references) {
      expect(reference, reference).not.toMatch(/^(https?:)?\/\//);
      const asset = await request(gw.app).get(new URL(reference, "http://gateway/docs/").pathname);
      expect(asset.status, reference).toBe(200);
    }
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("points Swagger UI at this API's document and never at an online validator", async () => {
    const init = await request(gw.app).get("/docs/swagger-ui-init.js");
    expect(init.status).toBe(200);
    expect(init.text).toContain('"url": "/api/v1/openapi.json"');
    expect(init.text).toContain('"validatorUrl": null');
    expect(init.text).not.toMatch(/https?:\/\//);
  });
});
