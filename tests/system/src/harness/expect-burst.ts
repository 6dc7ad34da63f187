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

/**
 * As expectNoLossNoDuplicate, except for CT600 parts whose submission was in flight when the
 * tax submitter died: the authority may have received them, but nobody knows their correlation id, so
 * they are never sent again (no second filing either: the client's retries get 502 TAX_UNAVAILABLE
 * until it gives up, and the filing ends `error` by the sweeper, uncharged). No CT600 part
 * reaches the authority twice.
 */
export function expectNoDuplicateWithTaxInDoubt(facts: BurstFacts, submits: number): void {
  expectMoneyAndFilingsConsistent(facts, submits);
  for (const { attempts } of facts.unsettled) expect(attempts).toContainEqual({ status: 502, code: "TAX_UNAVAILABLE" });
  const answered = new Set(facts.answeredIds);
  const inDoubt = [...facts.filings.values()].filter((filing) => !answered.has(filing.filing_id));
  expect(inDoubt.map((filing) => [filing.filing_type, filing.status])).toEqual(facts.unsettled.map(() => ["ct600", "error"]));
  // Recorded parts reached the authority once each; a part in doubt at most once (the dying
  // worker may or may not have sent it): never more submissions than parts.
  expect(new Set(facts.tax.acknowledged).size).toBe(facts.tax.acknowledged.length);
  expect(facts.tax.acknowledged).toEqual(expect.arrayContaining(facts.tax.recorded));
  expect(facts.tax.acknowledged.length).toBeLessThanOrEqual(facts.tax.parts);
  expect([...facts.registry.acknowledged].sort()).toEqual([...facts.registry.filings].sort());
}
