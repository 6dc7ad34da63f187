import { describe, expect, it } from "vitest";
import { AGAINST_FILINGS_SETTLE_MS, AGAINST_FILINGS_SINCE, isBillingAdminCommand, parseBillingAdminArgs } from "./cli-args.ts";
import { UsageError } from "@dormant/service-kit";

describe("billing admin arguments", () => {
  it("parses each command", () => {
    expect(parseBillingAdminArgs(["balance", "--account", "acc_A1"])).toEqual({ command: "balance", accountId: "acc_A1" });
    expect(parseBillingAdminArgs(["top-up", "--account", "acc_A1", "--amount", "50"])).toEqual({
      command: "top-up",
      accountId: "acc_A1",
      amountPence: 5000n,
    });
    expect(parseBillingAdminArgs(["top-up", "--account=acc_A1", "--amount=0.05", "--payment-id", "inv-2025-001"])).toEqual({
      command: "top-up",
      accountId: "acc_A1",
      amountPence: 5n,
      paymentId: "inv-2025-001",
    });
    expect(parseBillingAdminArgs(["ledger", "--account", "acc_A1"])).toEqual({ command: "ledger", accountId: "acc_A1" });
    expect(parseBillingAdminArgs(["ledger", "--account", "acc_A1", "--limit", "20"])).toEqual({
      command: "ledger",
      accountId: "acc_A1",
      limit: 20,
    });
    expect(parseBillingAdminArgs(["reconcile"])).toEqual({ command: "reconcile" });
    expect(parseBillingAdminArgs(["reconcile", "--stale-hold-hours", "6"])).toEqual({ command: "reconcile", staleHoldHours: 6 });
    expect(parseBillingAdminArgs(["open-account", "--account", "acc_A1", "--balance", "0", "--name", " Agency "])).toEqual({
      command: "open-account",
      accountId: "acc_A1",
      openingBalancePence: 0n,
      name: "Agency",
    });
  });

  it("parses reconcile --against-filings with its window: [since, until), by default everything until 15 minutes ago", () => {
    const now = new Date("2026-11-25T12:00:00.000Z");
    expect(parseBillingAdminArgs(["reconcile", "--against-filings"], now)).toEqual({
      command: "reconcile",
      againstFilings: { since: AGAINST_FILINGS_SINCE, until: new Date(now.getTime() - AGAINST_FILINGS_SETTLE_MS) },
    });
    expect(AGAINST_FILINGS_SETTLE_MS).toBe(15 * 60 * 1000);
    expect(
      parseBillingAdminArgs(
        ["reconcile", "--against-filings", "--since", "2026-10-01", "--until", "2026-11-01T09:30:00+01:00", "--stale-hold-hours", "6"],
        now,
      ),
    ).toEqual({
      command: "reconcile",
      staleHoldHours: 6,
      againstFilings: { since: new Date("2026-10-01T00:00:00.000Z"), until: new Date("2026-11-01T08:30:00.000Z") },
    });
    expect(parseBillingAdminArgs(["reconcile", "--against-filings", "--since=2026-11-25T11:00:00Z"], now)).toMatchObject({
      againstFilings: { since: new Date("2026-11-25T11:00:00.000Z"), until: new Date("2026-11-25T11:45:00.000Z") },
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
      [["reconcile", "--since", "2026-10-01"], /--since and --until go with --against-filings/],
      [["reconcile", "--against-filings", "--since", "yesterday"], /--since must be an ISO 8601 date-time/],
      [["reconcile", "--against-filings", "--until", "2026-10-01T00:00:00"], /--until must be an ISO 8601 date-time with its offset/],
      [
        ["reconcile", "--against-filings", "--since", "2026-10-02", "--until", "2026-10-01"],
        /--since \(2026-10-02T00:00:00.000Z\) must be before --until/,
      ],
      [["reconcile", "--against-filings", "--since", "2999-01-01"], /must be before --until .*by default 15 minutes ago/],
      [["reconcile", "--against-filings=yes"], /--against-filings/],
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
