import type { AccountsDerivedValues, AccountsValidationResult, ValidateAccountsRequest } from "@dormant/contracts";
import { planAccountsFiling } from "../submit/accounts-plan.ts";
import { registryFor, type ValidateDeps } from "./validate-deps.ts";
import { planOrFindings, report } from "./validation-report.ts";

/**
 * `filing.validate_accounts` (POST /filings/accounts/validate): what an accounts submit runs
 * before money or the registry, nothing stored or sent. The filing is planned as a submit plans
 * it: the registry's data (the sandbox's for a test key) with every override, the business rules,
 * and the iXBRL accounts rendered and checked for the registry's mandatory facts.
 */
export async function validateAccounts(deps: ValidateDeps, request: ValidateAccountsRequest): Promise<AccountsValidationResult> {
  const { caller, filing } = request;
  const planned = await planOrFindings(
    () => planAccountsFiling(registryFor(deps, caller.mode), filing, deps.now()),
    ["ixbrl_mandatory_facts"],
  );
  const result = report<AccountsDerivedValues>(planned.plan, planned.findings, filing.client_reference);
  return caller.mode === "test" ? { ...result, sandbox: true } : result;
}
