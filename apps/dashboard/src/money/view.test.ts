import type { LedgerLine } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { describeLine, pounds } from "./view.ts";

const line = (fields: Partial<LedgerLine>): LedgerLine => ({
  entry_id: "1",
  kind: "credit",
  balance_delta_pence: 0,
  held_delta_pence: 0,
  filing_id: null,
  top_up: null,
  note: null,
  created_at: "2026-12-01T09:00:00.000Z",
  ...fields,
});

describe("ledger lines in plain words", () => {
  it("names a refund and a dispute of a payment (the provider took the money back)", () => {
    const reversal = (kind: "refund" | "dispute") =>
      line({ kind: "reversal", balance_delta_pence: -2000, reversal: { kind, provider_id: "x_1", payment_id: "pay_7" } });
    expect(describeLine(reversal("refund"))).toBe("Payment pay_7 refunded");
    expect(describeLine(reversal("dispute"))).toBe("Payment pay_7 disputed: taken back");
    expect(pounds(-2000)).toBe("-£20.00");
  });
});
