import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings security", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "list_filings_security" });
  });
  afterAll(() => gw?.close());

  it("needs a valid key, before the query is even looked at", async () => {
    const none = await get(gw.app, "/filings?limit=1000", "");
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("AUTH_REQUIRED");
    const revokedShape = await get(gw.app, "/filings", "api_test_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
    expect(revokedShape.status).toBe(401);
    expect(revokedShape.body.error.code).toBe("INVALID_KEY");
  });
});
