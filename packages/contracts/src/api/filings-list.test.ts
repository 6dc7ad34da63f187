import { describe, expect, it } from "vitest";
import { ListFilingsQuery, validationDetails } from "../index.ts";

describe("GET /filings query", () => {
  it("defaults limit 20 and offset 0 and parses numbers", () => {
    expect(ListFilingsQuery.parse({})).toEqual({ limit: 20, offset: 0 });
    expect(ListFilingsQuery.parse({ limit: "100", offset: "40", status: "accepted", type: "ct600", company_number: "SC000001" })).toEqual({
      limit: 100,
      offset: 40,
      status: "accepted",
      type: "ct600",
      company_number: "SC000001",
    });
  });

  it.each([
    [{ limit: "0" }, "limit"],
    [{ limit: "101" }, "limit"],
    [{ limit: "2.5" }, "limit"],
    [{ limit: ["1", "2"] }, "limit"],
    [{ offset: "-1" }, "offset"],
    [{ status: "done" }, "status"],
    [{ type: "vat" }, "type"],
    [{ company_number: "123" }, "company_number"],
    [{ sort: "asc" }, "sort"],
  ])("refuses %j naming %s", (query, field) => {
    const result = ListFilingsQuery.safeParse(query);
    expect(result.success).toBe(false);
    if (!result.success) expect(validationDetails(result.error, "query").map((d) => d.field)).toEqual([field]);
  });
});
