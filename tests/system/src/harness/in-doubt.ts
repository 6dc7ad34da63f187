import type { ExpectStatic } from "vitest";
import type { Filing } from "@dormant/contracts";
import type { FilingKind } from "./api-client.ts";
import { startBroker, stopBroker } from "./broker.ts";
import { accountsBody, ct600Body } from "./companies.ts";
import type { AppName } from "./paths.ts";
import { startSystem, type RunningSystem } from "./system.ts";
import { waitForFinal } from "./wait-final.ts";

/** The bound: the filing ends accepted within 3 minutes of the submit. */
export const IN_DOUBT_WITHIN_MS = 180_000;

/** What goes down while the authority holds the answer: an app (kill -9, started again a second later) or the broker. */
export type Disturbance = AppName | "broker";

/**
 * A system whose timings let an in-doubt submission settle in seconds: the gateway gives up on
 * the filing service's answer before the client does, the claim an interrupted submit leaves
 * lapses sooner, the sweeper looks every 2 s, and the submitters ask the authority after 5 s.
 */
export function startInDoubtSystem(label: string): Promise<RunningSystem> {
  return startSystem({
    label,
    env: {
      gateway: { FILING_RPC_SUBMIT_TIMEOUT_MS: "15000" },
      filing: { SUBMIT_CLAIM_SECONDS: "20", SWEEPER_PENDING_AFTER_SECONDS: "5", SWEEPER_INTERVAL_MS: "2000" },
      "tax-submitter": { IN_DOUBT_SETTLE_SECONDS: "5" },
      "registry-submitter": { IN_DOUBT_SETTLE_SECONDS: "5" },
    },
  });
}

async function disturb(system: RunningSystem, what: Disturbance): Promise<void> {
  if (what !== "broker") return system.crash(what, { downMs: 1_000 });
  try {
    await stopBroker();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  } finally {
    await startBroker();
  }
}

/**
 * One in-doubt submission, end to end: the authority takes the submission in and holds its
 * answer (the simulator's `loseAnswer: "hold"` fault), `what` goes down in that moment, and the
 * client, which submitted once and heard nothing certain, never retries. The filing must end
 * accepted within the bound, sent once, charged once, reconcile clean. `expect` is the test's
 * own (its context's), so that cases can run concurrently.
 */
export async function lostAnswerThenDisturb(
  expect: ExpectStatic,
  system: RunningSystem,
  kind: FilingKind,
  company: string,
  target: "tax" | "registry",
  what: Disturbance,
): Promise<{ final: Filing; elapsedMs: number }> {
  const account = await system.createAccount({ balancePence: 10_000, name: `in-doubt ${kind}` });
  const client = system.client(account.liveKey);
  await system.sim.setFaults(target, { loseAnswer: "hold", loseAnswerCount: 1 });
  const started = Date.now();
  // One 12-month period: a single CT600 part (a split return's part 2, never sent when the filing
  // service dies, waits for the client's retry: apps/filing/README.md, the sweeper).
  const body =
    kind === "ct600" ? ct600Body(company, "2026-03-31", { period: { start: "2025-04-01" } }) : accountsBody(company, "2026-03-31");
  const submit = client.submit(kind, body, `in-doubt-${kind}-${company}`);
  // The authority has taken the submission in; its answer is held. Take down what waits for it.
  await expect
    .poll(async () => (await system.sim.received({ target, company, kind: "submit" })).length, { timeout: 20_000, interval: 100 })
    .toBe(1);
  await disturb(system, what);
  const answer = await submit;
  // The client heard nothing certain (no 202): the filing is in doubt, not dropped.
  expect(answer.status).not.toBe(202);
  // Reads may fail while an app reconnects (after a broker restart): read until one answers.
  let listed: Awaited<ReturnType<typeof client.allFilings>> | undefined;
  await expect
    .poll(
      async () => {
        listed = await client.allFilings().catch(() => undefined);
        return listed !== undefined;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(true);
  const [filing, ...others] = listed!;
  expect(others).toEqual([]);
  const final = await waitForFinal(client, filing!.filing_id, { timeoutMs: IN_DOUBT_WITHIN_MS - (Date.now() - started) });
  const elapsedMs = Date.now() - started;

  expect({ status: final.status, error: final.error }).toEqual({ status: "accepted", error: undefined });
  expect(elapsedMs).toBeLessThan(IN_DOUBT_WITHIN_MS);
  // One transmission: the authority took the submission in once.
  expect(await system.sim.received({ target, company, kind: "submit" })).toHaveLength(1);
  // Charged once, nothing held.
  await expect.poll(async () => (await system.billing.balance(account.accountId)).held, { timeout: 15_000 }).toBe("0.00");
  expect(await system.billing.captures(account.accountId)).toEqual([filing!.filing_id]);
  expect(await system.billing.balance(account.accountId)).toMatchObject({ balance: "80.00", held: "0.00" });
  const report = await system.billing.reconcile();
  expect(report.problems).toEqual([]);
  return { final, elapsedMs };
}
