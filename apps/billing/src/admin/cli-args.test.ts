import { describe, expect, it } from "vitest";
import { isBillingAdminCommand, parseBillingAdminArgs, UsageError } from "./cli-args.ts";

describe("billing admin arguments", () => {
  it("parses each command", () => {
    expect(parseBillingAdminArgs(["balance", "--account", "acc_A1"])).toEqual({ command: "balance", accountId: "acc_A1" });
    expect(parseBillingAdminArgs(["top-up", "--account", "acc_A1", "--amount", "50"])).toEqual({ command: "top-up", accountId: "acc_A1", amountPence: 5000n });
    expect(parseBillingAdminArgs(["top-up", "--account=acc_A1", "--amount=0.05", "--payment-id", "inv-2025-001"])).toEqual({
      command: "top-up",
      accountId: "acc_A1",
      amountPence: 5n,
      paymentId: "inv-2025-001",
    });
    expect(parseBillingAdminArgs(["ledger", "--account", "acc_A1"])).toEqual({ command: "ledger", accountId: "acc_A1" });
    expect(parseBillingAdminArgs(["ledger", "--account", "acc_A1", "--limit", "20"])).toEqual({ command: "ledger", accountId: "acc_A1", limit: 20 });
    expect(parseBillingAdminArgs(["reconcile"])).toEqual({ command: "reconcile" });
    expect(parseBillingAdminArgs(["reconcile", "--stale-hold-hours", "6"])).toEqual({ command: "reconcile", staleHoldHours: 6 });
    expect(parseBillingAdminArgs(["open-account", "--account", "acc_A1", "--balance", "0", "--name", " Agency "])).toEqual({
      command: "open-account",
      accountId: "acc_A1",
      openingBalancePence: 0n,
      name: "Agency",
    });
  });

  it("refuses bad invocations with a message naming the problem", () => {
    const refused: Array<[string[], RegExp]> = [
      [[], /a command is required/],
      [["charge"], /unknown billing command "charge"/],
      [["balance"], /--account ACCOUNT_ID is required/],
      [["balance", "--account", "acc 1"], /--account must be an account id/],
      [["balance", "--account", "acc_1", "extra"], /Unexpected argument/],
      [["balance", "--acount", "acc_1"], /Unknown option/],
      [["top-up", "--account", "acc_1"], /--amount is required/],
      [["top-up", "--account", "acc_1", "--amount", "0"], /--amount must be a positive amount/],
      [["top-up", "--account", "acc_1", "--amount=-5"], /--amount must be a positive amount/],
      [["top-up", "--account", "acc_1", "--amount", "5.001"], /--amount must be a positive amount/],
      [["top-up", "--account", "acc_1", "--amount", "5", "--payment-id", "a b"], /--payment-id must be/],
      [["ledger", "--account", "acc_1", "--limit", "0"], /--limit must be a whole number/],
      [["open-account", "--account", "acc_1"], /--balance is required/],
    ];
    for (const [argv, message] of refused) {
      expect(() => parseBillingAdminArgs(argv), argv.join(" ")).toThrow(UsageError);
      expect(() => parseBillingAdminArgs(argv), argv.join(" ")).toThrow(message);
    }
  });

  it("knows which commands are billing's", () => {
    expect(["balance", "top-up", "ledger", "reconcile", "open-account"].every(isBillingAdminCommand)).toBe(true);
    expect(isBillingAdminCommand("create-account")).toBe(false);
    expect(isBillingAdminCommand(undefined)).toBe(false);
  });
});
