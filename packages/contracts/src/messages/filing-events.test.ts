import { describe, expect, it } from "vitest";
import { FilingAccepted, FilingErrored, PLATFORM_MESSAGE_CATALOG } from "../index.ts";

const accepted = {
  filing_id: "fil_abc123",
  account_id: "acc_1",
  filing_type: "ct600",
  company_number: "00000001",
  occurred_at: "2026-11-25T10:00:00.000Z",
  fee_pence: 2000,
} as const;

describe("filing events", () => {
  it("an ordinary acceptance stays valid without corrects, as every message published before it existed", () => {
    const parsed = FilingAccepted.parse(accepted);
    expect(parsed).toEqual(accepted);
    expect("corrects" in parsed).toBe(false);
    expect(PLATFORM_MESSAGE_CATALOG["filing.accepted"].schema.safeParse(accepted).success).toBe(true);
  });

  it("a late acceptance says it corrects an error", () => {
    expect(FilingAccepted.parse({ ...accepted, corrects: "error" })).toEqual({ ...accepted, corrects: "error" });
  });

  it("refuses any other correction: a rejected filing never becomes accepted", () => {
    for (const corrects of ["rejected", "accepted", "", null, 1]) {
      const result = FilingAccepted.safeParse({ ...accepted, corrects });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["corrects"]);
    }
  });

  it("leaves filing.errored unchanged (it has no corrects)", () => {
    const errored = { ...accepted, fee_pence: undefined, error: { code: "AUTHORITY_UNAVAILABLE", message: "gave up" } };
    expect(FilingErrored.safeParse(errored).success).toBe(true);
    expect(FilingErrored.parse({ ...errored, corrects: "error" })).not.toHaveProperty("corrects");
  });
});
