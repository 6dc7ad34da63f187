import type { ApiClient } from "../src/harness/api-client.ts";
import { accountsBody, ct600Body } from "../src/harness/companies.ts";
import type { LoadRequest } from "./open-loop.ts";

/** Companies the simulator accepts after polling, both filing kinds, in rotation. */
const ROTATION: ReadonlyArray<Omit<LoadRequest, "client">> = [
  { kind: "ct600", body: ct600Body("00000001", "2026-03-31") },
  { kind: "accounts", body: accountsBody("SC000001", "2026-10-31") },
  { kind: "ct600", body: ct600Body("NI000001", "2026-08-31") },
  { kind: "accounts", body: accountsBody("00000001", "2026-03-31") },
  { kind: "ct600", body: ct600Body("SC000001", "2026-10-31") },
  { kind: "accounts", body: accountsBody("NI000001", "2026-08-31") },
];
/**
 * An account may have one live filing per type, company and period end (409 FILING_EXISTS): each
 * round of the rotation ends its periods a day earlier than the round before, and after this
 * many rounds the next account of the pool takes over (periods stay within four weeks).
 */
const ROUNDS_PER_ACCOUNT = 28;

/** How many accounts `submits` live submits need. */
export function accountsNeeded(submits: number): number {
  return Math.max(1, Math.ceil(Math.ceil(submits / ROTATION.length) / ROUNDS_PER_ACCOUNT));
}

/** The `index`-th submit of a phase: never the same account, type, company and period end twice. */
export function benchFiling(clients: readonly ApiClient[], index: number): LoadRequest {
  const round = Math.floor(index / ROTATION.length);
  const client = clients[Math.floor(round / ROUNDS_PER_ACCOUNT)];
  if (!client) throw new Error(`submit ${index} needs more than the ${clients.length} accounts made for the phase`);
  const filing = ROTATION[index % ROTATION.length]!;
  const shift = round % ROUNDS_PER_ACCOUNT;
  return { ...filing, client, body: { ...filing.body, period_end: daysBefore(String(filing.body.period_end), shift) } };
}

/** The calendar date `days` days before `date` (YYYY-MM-DD). */
function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}
