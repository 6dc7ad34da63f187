import { describe, expect, it } from "vitest";
import { SECURED_ROUTES } from "../test-support/secured-routes.ts";
import { describeSecuritySuite } from "../test-support/security-suite.ts";
import { API_ROUTES } from "./index.ts";

// The shared security suite, run by every route that needs a key.
const authenticated = API_ROUTES.filter((route) => route.kind !== "public");

describe("security suite coverage", () => {
  it("has calls for every authenticated route, and only for those", () => {
    expect(Object.keys(SECURED_ROUTES).sort()).toEqual(authenticated.map((route) => route.openapi.operationId).sort());
  });
});

for (const route of authenticated) {
  const calls = SECURED_ROUTES[route.openapi.operationId ?? ""];
  if (calls) describeSecuritySuite(route, calls);
}
