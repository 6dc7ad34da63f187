import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "../test-support/captured-logs.ts";
import { accountsBody, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const AUTH_CODE = "QX7K2M";

describe("POST /filings/accounts security", () => {
  let gw: TestGateway;
  const logs = captureLogs();
  beforeAll(async () => {
    gw = await createTestGateway({ label: "accounts_security", logger: logs.logger });
  });
  afterAll(() => gw?.close());

  it("needs a valid key: 401 AUTH_REQUIRED or INVALID_KEY", async () => {
    expect((await submit(gw.app, "accounts", "", accountsBody())).body.error.code).toBe("AUTH_REQUIRED");
    expect((await submit(gw.app, "accounts", "api_live_nope", accountsBody())).body.error.code).toBe("INVALID_KEY");
  });

  it("carries the X-RateLimit-* headers, errors included", async () => {
    for (const body of [accountsBody(), accountsBody({ period_end: "x" })]) {
      const response = await submit(gw.app, "accounts", gw.account.testKey, body);
      for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
    }
  });

  it("never logs the company authentication code", async () => {
    const body = accountsBody({ credentials: { company_auth_code: AUTH_CODE } });
    await submit(gw.app, "accounts", gw.account.testKey, body);
    await submit(gw.app, "accounts", gw.account.liveKey, body);
    await submit(gw.app, "accounts", gw.account.liveKey, { ...body, period_end: "bad" });
    expect(logs.text()).toContain("request completed");
    expect(logs.text()).not.toContain(AUTH_CODE);
  });
});
