import type { BalanceView, ReconcileReport } from "@dormant/billing/admin";
import type { Filing } from "@dormant/contracts";
import type { ApiClient } from "./api-client.ts";
import type { BurstSubmit } from "./burst.ts";
import type { SubmitAttempt } from "./submit-retry.ts";
import type { RunningSystem } from "./system.ts";
import { waitForAllFinal } from "./wait-final.ts";

/** Everything a crash or restart test checks after a burst, gathered once every filing is final. */
export interface BurstFacts {
  /** Submits that never got a 202 (the client gave up), with their attempts. */
  unsettled: Array<{ key: string; attempts: SubmitAttempt[] }>;
  /** How many submits needed more than one attempt (the crash was felt). */
  retried: number;
  /** The filing id each Idempotency-Key got with its 202, in burst order. */
  answeredIds: string[];
  /** Every filing the key lists (each one final by now). */
  filings: Map<string, Filing>;
  /** Per answered submit: the final status and error code, beside what the table expects. */
  outcomes: Array<{ key: string; status: string | undefined; code: string | undefined }>;
  expectedOutcomes: Array<{ key: string; status: string; code: string | undefined }>;
  /** CT600 parts of every listed filing, the correlation ids recorded on them, and every submission the tax authority acknowledged during the burst. */
  tax: { parts: number; recorded: string[]; acknowledged: string[] };
  /** Submission numbers of every listed accounts filing, and every submission the registry acknowledged during the burst. */
  registry: { filings: string[]; acknowledged: string[] };
  /** Filing ids captured (charged) in billing, once per capture entry, and the accepted filings. */
  captures: string[];
  acceptedIds: string[];
  balance: BalanceView;
  expectedBalance: string;
  reconcile: ReconcileReport;
}

/**
 * Waits until every filing of the key is final (read through the gateway), then gathers the
 * facts about losses and duplicates: which submits were answered, the filings the key lists,
 * the submissions the simulator acknowledged since `sinceSeq`, billing's captures, balance and
 * reconcile report.
 */
export async function collectBurstFacts(
  system: RunningSystem,
  client: ApiClient,
  submits: readonly BurstSubmit[],
  {
    accountId,
    openingPence,
    sinceSeq,
    timeoutMs = 180_000,
  }: { accountId: string; openingPence: number; sinceSeq: number; timeoutMs?: number },
): Promise<BurstFacts> {
  const answeredIds = submits.flatMap((submit) =>
    submit.result.answer?.status === 202 && submit.result.answer.data ? [submit.result.answer.data.filing_id] : [],
  );
  const listedIds = (await client.allFilings()).map((filing) => filing.filing_id);
  const filings = await waitForAllFinal(client, [...new Set([...listedIds, ...answeredIds])], { timeoutMs });
  const final = (submit: BurstSubmit) =>
    submit.result.answer?.status === 202 && submit.result.answer.data ? filings.get(submit.result.answer.data.filing_id) : undefined;

  const all = [...filings.values()];
  const ct600 = all.filter((filing) => filing.filing_type === "ct600");
  const since = <T extends { seq: number }>(entries: T[]): T[] => entries.filter((entry) => entry.seq > sinceSeq);
  const acceptedIds = all.filter((filing) => filing.status === "accepted").map((filing) => filing.filing_id);
  const expectedBalance = ((openingPence - acceptedIds.length * 2000) / 100).toFixed(2);
  // Billing applies the outcome events after the filing service: wait until every hold is settled.
  const deadline = Date.now() + 30_000;
  let balance = await system.billing.balance(accountId);
  while ((balance.held !== "0.00" || balance.balance !== expectedBalance) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    balance = await system.billing.balance(accountId);
  }

  return {
    unsettled: submits
      .filter((submit) => submit.result.answer?.status !== 202)
      .map((submit) => ({ key: submit.idempotencyKey, attempts: submit.result.attempts })),
    retried: submits.filter((submit) => submit.result.attempts.length > 1).length,
    answeredIds,
    filings,
    outcomes: submits
      .filter(final)
      .map((submit) => ({ key: submit.idempotencyKey, status: final(submit)?.status, code: final(submit)?.error?.code })),
    expectedOutcomes: submits
      .filter(final)
      .map((submit) => ({ key: submit.idempotencyKey, status: submit.filing.expected.status, code: submit.filing.expected.code })),
    tax: {
      parts: ct600.reduce((count, filing) => count + (filing.parts?.length ?? 1), 0),
      recorded: ct600
        .flatMap((filing) => (filing.parts ? filing.parts.map((part) => part.tax_correlation_id) : [filing.tax_correlation_id]))
        .filter((id): id is string => id !== undefined),
      acknowledged: since(await system.sim.acknowledgedSubmissions("tax")).map((entry) => entry.correlationId ?? "(none)"),
    },
    registry: {
      filings: all.filter((filing) => filing.filing_type === "accounts").map((filing) => filing.registry_submission_number ?? "(none)"),
      acknowledged: since(await system.sim.acknowledgedSubmissions("registry")).map((entry) => entry.submissionNumber ?? "(none)"),
    },
    captures: await system.billing.captures(accountId),
    acceptedIds,
    balance,
    expectedBalance,
    reconcile: await system.billing.reconcile(),
  };
}
