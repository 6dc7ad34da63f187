import { describe, expect, it } from "vitest";
import { pollEndpoint } from "./tax-gateway.ts";

describe("pollEndpoint", () => {
  const configured = "https://transaction-engine.tax.service.gov.uk/poll";

  it("uses the ResponseEndPoint the authority gave on its own host", () => {
    expect(pollEndpoint("https://transaction-engine.tax.service.gov.uk/poll2", configured)).toBe("https://transaction-engine.tax.service.gov.uk/poll2");
  });

  it("never follows a ResponseEndPoint to another host, and falls back when there is none", () => {
    expect(pollEndpoint("https://elsewhere.example/poll", configured)).toBe(configured);
    expect(pollEndpoint("not a url", configured)).toBe(configured);
    expect(pollEndpoint(undefined, configured)).toBe(configured);
  });
});
