import { readFileSync } from "node:fs";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";
import { EXPORTED_OPENAPI_FILE, exportedOpenApiText } from "./exported-document.ts";

describe("the committed OpenAPI file (the typed client's input)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "openapi-export" });
  });
  afterAll(() => gw?.close());

  it("is byte for byte the document GET /api/v1/openapi.json serves: run `npm run openapi` after an API change", async () => {
    const response = await request(gw.app).get("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(readFileSync(EXPORTED_OPENAPI_FILE, "utf8")).toBe(exportedOpenApiText(response.body));
  });
});
