import type { AccountsOverrides } from "@dormant/contracts";
import type { BalanceSheetPence } from "../../balance-sheet.ts";
import { amountToPence } from "../../validation/balance-sheet.ts";
import type { FieldProblem } from "../../validation/field-problem.ts";
import type { AccountsFactsInput } from "./facts-input.ts";

/** The request's balance-sheet figures converted to pence; an unusable amount is a problem and left out. */
export function givenBalanceSheet(input: AccountsFactsInput, problems: FieldProblem[]): Partial<BalanceSheetPence> {
  const overrides: NonNullable<AccountsOverrides["balance_sheet"]> = input.overrides?.balance_sheet ?? {};
  const given: Partial<BalanceSheetPence> = {};
  const fields = [
    ["share_capital", "shareCapital"],
    ["cash", "cash"],
    ["creditors", "creditors"],
    ["profit_loss_account", "profitLossAccount"],
  ] as const;
  for (const [field, key] of fields) {
    const pounds = overrides[field];
    if (pounds === undefined) continue;
    const converted = amountToPence(`balance_sheet.${field}`, pounds);
    if (converted.ok) given[key] = converted.pence;
    else problems.push(converted.problem);
  }
  return given;
}
