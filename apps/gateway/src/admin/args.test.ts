import { describe, expect, it } from "vitest";
import { UsageError } from "@dormant/service-kit";
import { parseAdminArgs } from "./args.ts";

describe("admin CLI arguments", () => {
  it("parses create-account with and without overrides", () => {
    expect(parseAdminArgs(["create-account", "--name", "Acme Formations", "--balance", "250.75"])).toEqual({
      command: "create-account",
      name: "Acme Formations",
      openingBalancePence: 25_075n,
    });
    expect(parseAdminArgs(["create-account", "--name=X", "--balance=0", "--rate-per-minute", "5", "--rate-per-day", "500"])).toEqual({
      command: "create-account",
      name: "X",
      openingBalancePence: 0n,
      rateLimitPerMinute: 5,
      rateLimitPerDay: 500,
    });
  });

  it("parses create-key with and without a name (trimmed)", () => {
    expect(parseAdminArgs(["create-key", "--account", "acc_AbC123", "--mode", "live"])).toEqual({
      command: "create-key",
      accountId: "acc_AbC123",
      mode: "live",
    });
    expect(parseAdminArgs(["create-key", "--account=acc_AbC123", "--mode=test", "--name", " CI server "])).toEqual({
      command: "create-key",
      accountId: "acc_AbC123",
      mode: "test",
      name: "CI server",
    });
  });

  it("parses revoke-key and list-accounts", () => {
    expect(parseAdminArgs(["revoke-key", "--key", "AbCdEfGh12345678"])).toEqual({ command: "revoke-key", keyId: "AbCdEfGh12345678" });
    expect(parseAdminArgs(["list-accounts"])).toEqual({ command: "list-accounts" });
  });

  it.each([
    [[], /command is required/],
    [["drop-everything"], /unknown command/],
    [["create-account", "--balance", "10"], /--name is required/],
    [["create-account", "--name", "  ", "--balance", "10"], /--name is required/],
    [["create-account", "--name", "X"], /--balance is required/],
    [["create-account", "--name", "X", "--balance", "abc"], /--balance must be/],
    [["create-account", "--name", "X", "--balance=-5"], /--balance must be/],
    [["create-account", "--name", "X", "--balance", "-5"], /--balance/],
    [["create-account", "--name", "X", "--balance", "1.234"], /--balance must be/],
    [["create-account", "--name", "X", "--balance", "1", "--rate-per-minute", "0"], /--rate-per-minute must be/],
    [["create-account", "--name", "X", "--balance", "1", "--rate-per-day", "2.5"], /--rate-per-day must be/],
    [["create-account", "--name", "X", "--balance", "1", "--colour", "red"], /Unknown option/],
    [["create-key", "--mode", "live"], /--account ACCOUNT_ID is required/],
    [["create-key", "--account", "Robert'); DROP", "--mode", "live"], /--account must be an account id/],
    [["create-key", "--account", "acc_AbC123"], /--mode must be live or test$/],
    [["create-key", "--account", "acc_AbC123", "--mode", "LIVE"], /--mode must be live or test, got "LIVE"/],
    [["create-key", "--account", "acc_AbC123", "--mode", "live", "--name", "  "], /--name must not be empty/],
    [["create-key", "--account", "acc_AbC123", "--mode", "live", "--name", "x".repeat(81)], /--name must be at most 80 characters/],
    [["create-key", "--account", "acc_AbC123", "--mode", "live", "--balance", "1"], /Unknown option/],
    [["revoke-key"], /--key KEY_ID is required/],
    [["list-accounts", "extra"], /Unexpected argument/],
  ])("rejects %j", (argv, message) => {
    expect(() => parseAdminArgs(argv as string[])).toThrow(UsageError);
    expect(() => parseAdminArgs(argv as string[])).toThrow(message);
  });
});
