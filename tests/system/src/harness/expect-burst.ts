import { expect } from "vitest";
import type { BurstFacts } from "./burst-facts.ts";

/** The key's filings hold every answered submit once, and every charge, hold and ledger line adds up. */
function expectMoneyAndFilingsConsistent(facts: BurstFacts, submits: number): void {
  expect(new Set(facts.answeredIds).size).toBe(facts.answeredIds.length);
  // One filing per Idempotency-Key: the answered ones, plus one for each submit the client gave up on.
  expect(facts.filings.size).toBe(submits);
  for (const id of facts.answeredIds) expect(facts.filings.has(id)).toBe(true);
  expect(facts.outcomes).toEqual(facts.expectedOutcomes);
  expect([...facts.captures].sort()).toEqual([...facts.acceptedIds].sort());
  expect(facts.balance).toMatchObject({ balance: facts.expectedBalance, held: "0.00" });
  expect(facts.reconcile.problems).toEqual([]);
  expect(facts.reconcile.ok).toBe(true);
}

/**
 * No filing lost, none duplicated: every submit answered 202 with a filing of its own, each
 * final with the table's outcome; each submission sent to its authority exactly once (the
 * simulator's log holds exactly the parts' correlation ids and the accounts' submission
 * numbers); exactly one capture per accepted filing, no hold left, the ledger reconciling.
 */
export function expectNoLossNoDuplicate(facts: BurstFacts, submits: number): void {
  expect(facts.unsettled).toEqual([]);
  expectMoneyAndFilingsConsistent(facts, submits);
  expect([...facts.tax.acknowledged].sort()).toEqual([...facts.tax.recorded].sort());
  expect(facts.tax.recorded).toHaveLength(facts.tax.parts);
  expect([...facts.registry.acknowledged].sort()).toEqual([...facts.registry.filings].sort());
}
