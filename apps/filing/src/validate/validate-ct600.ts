import { TAX_CHECK_QUEUE, type Ct600DerivedValues, type Ct600ValidationResult, type ValidateCt600Request } from "@dormant/contracts";
import { attachedAccounts, findCt600Accounts, type Ct600Accounts } from "../submit/accounts-for-ct600.ts";
import { planCt600Filing } from "../submit/ct600-plan.ts";
import { classifySubmitterFailure } from "../submit/failures.ts";
import type { NewFiling } from "../submit/new-filing.ts";
import { registryFor, type ValidateDeps } from "./validate-deps.ts";
import { planOrFindings, report, type Findings } from "./validation-report.ts";

/**
 * `filing.validate_ct600` (POST /filings/ct600/validate): what a CT600 submit runs before money
 * or the authority, nothing stored or sent. The filing is planned as a submit plans it (the
 * registry's data, or the sandbox's for a test key, every override, the business rules, the
 * period split); a live key's returns attach the accounts a submit would attach now; then the
 * tax submitter builds each return as it would send it and runs HMRC's CT600 schema and business
 * rules on it (`tax.check_part`, never sent). A tax submitter that cannot be reached is
 * TAX_UNAVAILABLE with Retry-After, as for a submit.
 */
export async function validateCt600(deps: ValidateDeps, request: ValidateCt600Request): Promise<Ct600ValidationResult> {
  const { caller, filing } = request;
  const planned = await planOrFindings(() => planCt600Filing(registryFor(deps, caller.mode), filing, deps.now()), []);
  const findings = planned.plan ? await checkReturns(deps, planned.plan, caller) : planned.findings;
  const result = report<Ct600DerivedValues>(planned.plan, findings, filing.client_reference);
  return caller.mode === "test" ? { ...result, sandbox: true } : result;
}

async function checkReturns(deps: ValidateDeps, plan: NewFiling, caller: ValidateCt600Request["caller"]): Promise<Findings> {
  const findings: Findings = { checks: [{ name: "business_rules", passed: true }], problems: [] };
  // The sandbox stores no accounts, so a test key's returns give the dormant reason.
  const accounts: Ct600Accounts | null =
    caller.mode === "live" ? await findCt600Accounts(deps.db, caller.account_id, plan.companyNumber, plan.period.end) : null;
  for (const part of plan.parts) {
    const check = {
      ...part.request,
      ...(accounts ? { accounts: attachedAccounts(accounts, part.request) } : {}),
    };
    try {
      const checked = await deps.bus.rpcCall(TAX_CHECK_QUEUE, "tax.check_part", check);
      findings.checks.push(...checked.checks);
      findings.problems.push(...checked.problems);
    } catch (error) {
      throw classifySubmitterFailure(error, "tax").publicError;
    }
  }
  return findings;
}
