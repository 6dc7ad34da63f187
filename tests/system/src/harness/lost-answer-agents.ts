import type { ExpectStatic } from "vitest";
import type { Filing } from "@dormant/contracts";
import type { ApiAnswer, ApiClient, FilingKind, SubmitData } from "./api-client.ts";
import { accountsBody, ct600Body } from "./companies.ts";
import { IN_DOUBT_WITHIN_MS } from "./in-doubt.ts";
import type { RunningSystem } from "./system.ts";
import { waitForFinal } from "./wait-final.ts";
import { WebhookListener } from "./webhook-listener.ts";

/** An agent with its own account, webhook listener and one submit to make. */
interface AgentRun {
  accountId: string;
  client: ApiClient;
  listener: WebhookListener;
  idempotencyKey: string;
  body: Record<string, unknown>;
}

/** The filing an in-doubt 502 names (`details` field `filing_id`), checking its shape on the way. */
function namedFiling(expect: ExpectStatic, answer: ApiAnswer<SubmitData>, code: string): string {
  expect({ status: answer.status, code: answer.error?.code }, JSON.stringify(answer.error)).toEqual({ status: 502, code });
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
  const detail = answer.error?.details?.find((entry) => entry.field === "filing_id");
  expect(detail).toMatchObject({ filing_id: expect.stringMatching(/^fil_/), filing_status: "pending", in_doubt: true });
  expect(answer.error?.message).toMatch(/settled with the .* and nothing will be sent twice/);
  return detail!.filing_id!;
}

async function startAgent(system: RunningSystem, kind: FilingKind, company: string, label: string): Promise<AgentRun> {
  const account = await system.createAccount({ balancePence: 10_000, name: `lost answer ${label} ${kind}` });
  const client = system.client(account.liveKey);
  const listener = await WebhookListener.start();
  const endpoint = await client.request("POST", "/webhook_endpoints", { body: { url: listener.url } });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint not registered: ${endpoint.status}`);
  const body =
    kind === "ct600" ? ct600Body(company, "2026-03-31", { period: { start: "2025-04-01" } }) : accountsBody(company, "2026-03-31");
  const idempotencyKey = `lost-answer-${label}-${kind}-${company}`;
  return { accountId: account.accountId, client, listener, idempotencyKey, body };
}

/** One transmission, charged once, nothing held, reconcile clean, and the outcome at the agent's webhook. */
async function expectSettledOnce(
  expect: ExpectStatic,
  system: RunningSystem,
  agent: AgentRun,
  filingId: string,
  target: "tax" | "registry",
  company: string,
): Promise<Filing> {
  const final = await waitForFinal(agent.client, filingId, { timeoutMs: IN_DOUBT_WITHIN_MS });
  expect({ status: final.status, error: final.error }).toEqual({ status: "accepted", error: undefined });
  expect(await system.sim.received({ target, company, kind: "submit" })).toHaveLength(1);
  await expect.poll(async () => (await system.billing.balance(agent.accountId)).held, { timeout: 15_000 }).toBe("0.00");
  expect(await system.billing.captures(agent.accountId)).toEqual([filingId]);
  expect(await system.billing.balance(agent.accountId)).toMatchObject({ balance: "80.00", held: "0.00" });
  // The final outcome reaches the agent's webhook, whether or not it ever retried.
  await expect.poll(() => agent.listener.ofType("filing.accepted", filingId).length, { timeout: 30_000, interval: 250 }).toBe(1);
  expect((await agent.client.allFilings()).map((filing) => filing.filing_id)).toEqual([filingId]);
  return final;
}

/**
 * Issue 25 section 2, for one authority: the authority takes two submissions in and both answers
 * are lost (the simulator closes the connection). Both agents get the in-doubt 502 naming their
 * filing. One never retries; the other retries the same key and body at once (the same 502 with
 * the same filing, never 409 IDEMPOTENCY_KEY_IN_USE), then as Retry-After says until it gets 202
 * with that filing. Both filings end accepted, each sent once and charged once, and each outcome
 * reaches its agent's webhook.
 */
export async function lostAnswerAgents(
  expect: ExpectStatic,
  system: RunningSystem,
  kind: FilingKind,
  target: "tax" | "registry",
  companies: { patient: string; retrying: string },
): Promise<void> {
  const code = target === "tax" ? "TAX_UNAVAILABLE" : "REGISTRY_UNAVAILABLE";
  const patient = await startAgent(system, kind, companies.patient, "patient");
  const retrying = await startAgent(system, kind, companies.retrying, "retrying");
  try {
    await system.sim.setFaults(target, { loseAnswer: "close", loseAnswerCount: 2 });
    const [patientAnswer, retryingAnswer] = await Promise.all(
      [patient, retrying].map((agent) => agent.client.submit(kind, agent.body, agent.idempotencyKey)),
    );
    const patientFiling = namedFiling(expect, patientAnswer!, code);
    const retryingFiling = namedFiling(expect, retryingAnswer!, code);

    // At once: the same 502 naming the same filing (no wait for a request that has ended, no 409).
    const atOnce = await retrying.client.submit(kind, retrying.body, retrying.idempotencyKey);
    expect(namedFiling(expect, atOnce, code)).toBe(retryingFiling);
    expect(atOnce.headers.get("idempotent-replayed")).toBeNull();

    // Then as Retry-After says, until the doubt is settled: 202 with that filing.
    const attempts: Array<{ status: number; code?: string }> = [];
    let last = atOnce;
    const deadline = Date.now() + IN_DOUBT_WITHIN_MS;
    while (last.status !== 202 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Number(last.headers.get("retry-after") ?? "2") * 1000));
      last = await retrying.client.submit(kind, retrying.body, retrying.idempotencyKey);
      attempts.push({ status: last.status, ...(last.error ? { code: last.error.code } : {}) });
      if (last.status === 502) expect(namedFiling(expect, last, code)).toBe(retryingFiling);
    }
    expect(attempts.filter((attempt) => attempt.status === 409)).toEqual([]);
    expect({ status: last.status, filing_id: last.data?.filing_id }, JSON.stringify(attempts)).toEqual({
      status: 202,
      filing_id: retryingFiling,
    });
    // Once settled, the key's answer is that 202: kept and replayed, sending nothing.
    const replayed = await retrying.client.submit(kind, retrying.body, retrying.idempotencyKey);
    expect({ status: replayed.status, filing_id: replayed.data?.filing_id }).toEqual({ status: 202, filing_id: retryingFiling });

    await expectSettledOnce(expect, system, patient, patientFiling, target, companies.patient);
    await expectSettledOnce(expect, system, retrying, retryingFiling, target, companies.retrying);
    expect(await system.billing.reconcile()).toMatchObject({ problems: [] });
  } finally {
    await system.sim.setFaults(target, { loseAnswer: null });
    await patient.listener.close();
    await retrying.listener.close();
  }
}
