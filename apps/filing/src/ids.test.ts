import { LIVE_FILING_ID_PATTERN } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { newFilingId, randomBase62Id } from "./ids.ts";

describe("filing ids", () => {
  it("are fil_ and 22 base62 characters, live-shaped, and do not repeat", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newFilingId()));
    expect(ids.size).toBe(2000);
    for (const id of ids) {
      expect(id).toMatch(/^fil_[0-9A-Za-z]{22}$/);
      expect(LIVE_FILING_ID_PATTERN.test(id)).toBe(true);
    }
  });

  it("use the whole alphabet", () => {
    const seen = new Set(Array.from({ length: 500 }, () => randomBase62Id()).join(""));
    expect(seen.size).toBe(62);
  });
});
