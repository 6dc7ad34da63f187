import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { acceptancesInRangeSql } from "./filing-facts.ts";

describe("billing's acceptances in a range of the filing service's order", () => {
  const ledger = useLedgerDatabase("filing_facts");

  it("are read as one range of the index filing_outcomes_accepted_occurred_at_idx, in its order", async () => {
    const range = {
      since: "2025-01-01T00:00:00.000Z",
      until: "2025-02-01T00:00:00.000Z",
      after: { finalized_at: "2025-01-10T00:00:00.000Z", filing_id: "fil_a" },
      through: { finalized_at: "2025-01-20T00:00:00.000Z", filing_id: "fil_b" },
    };
    const plan = await ledger.db.$transaction(async (tx) => {
      // An empty table makes a sequential scan cheaper: take it off the table to see what the index offers.
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      return tx.$queryRaw<Array<{ "QUERY PLAN": string }>>`EXPLAIN ${acceptancesInRangeSql(range, ["fil_a", "fil_b"])}`;
    });
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toMatch(
      /Index Scan using filing_outcomes_accepted_occurred_at_idx[^\n]*\n\s+Index Cond: [^\n]*ROW\(occurred_at, [^\n]*> ROW[^\n]*<= ROW/,
    );
    expect(text).not.toContain("Sort");
  });
});
