import type { SandboxCompany, SandboxFiling, SandboxOverview, SandboxScenarioRow } from "@dormant/contracts";
import { AppError, SANDBOX_ANY_OTHER_COMPANY, SANDBOX_COMPANIES } from "@dormant/contracts";
import type { GatewayDb } from "../db/client.ts";
import { parseSandboxFilingId } from "../sandbox/filing-id.ts";
import { SANDBOX_LIST, sandboxFiling } from "../sandbox/sandbox-backend.ts";
import { accountNotFound } from "./not-found.ts";

async function requireAccount(db: GatewayDb, accountId: string): Promise<void> {
  const row = await db.account.findUnique({ where: { id: accountId }, select: { id: true } });
  if (!row) throw accountNotFound();
}

function row(companyNumber: string | null, scenario: SandboxCompany): SandboxScenarioRow {
  return { company_number: companyNumber, jurisdiction: scenario.jurisdiction, outcome: scenario.outcome, reason: scenario.reason };
}

/** The spec's sandbox table as the dashboard shows it: the listed company numbers, then every other one. */
export const SANDBOX_SCENARIO_ROWS: readonly SandboxScenarioRow[] = [
  ...Object.entries(SANDBOX_COMPANIES).map(([companyNumber, scenario]) => row(companyNumber, scenario)),
  row(null, SANDBOX_ANY_OTHER_COMPANY),
];

/**
 * gateway.sandbox_filing: what a test key of the account gets polling the id (derived from the id,
 * nothing stored). NOT_FOUND for an unknown account, or an id that is not a sandbox filing id.
 */
export async function sandboxFilingForAccount(db: GatewayDb, request: { account_id: string; filing_id: string }): Promise<SandboxFiling> {
  await requireAccount(db, request.account_id);
  const ref = parseSandboxFilingId(request.filing_id);
  if (!ref) throw new AppError("NOT_FOUND", "Not a sandbox filing id: they look like fil_test_{type}_{company number}_{16 hex digits}");
  return sandboxFiling(ref);
}

/** gateway.sandbox_overview: a test key's (always empty) list, and the sandbox table. */
export async function sandboxOverview(db: GatewayDb, accountId: string): Promise<SandboxOverview> {
  await requireAccount(db, accountId);
  return { list: SANDBOX_LIST, scenarios: [...SANDBOX_SCENARIO_ROWS] };
}
