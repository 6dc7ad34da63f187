import { AppError } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { useBillingService } from "../test-support/service-fixture.ts";

// billing.open_account over a real broker into a real database, as the gateway calls it.
describe("billing.open_account", () => {
  const service = useBillingService("open_account");
  const open = (accountId: string, openingBalancePence = 0, name = "Agent Ltd") =>
    service.filing.rpcCall("billing.rpc", "billing.open_account", {
      account_id: accountId,
      name,
      opening_balance_pence: openingBalancePence,
    });
  const balanceOf = (accountId: string) => service.filing.rpcCall("billing.rpc", "billing.get_balance", { account_id: accountId });
  const credits = (accountId: string) => service.db.ledgerEntry.count({ where: { accountId, kind: "credit" } });

  it("opens an account with a zero balance, and opening it again answers it unchanged", async () => {
    expect(await open("acc_openZero")).toEqual({ account_id: "acc_openZero", created: true });
    expect(await open("acc_openZero")).toEqual({ account_id: "acc_openZero", created: false });
    expect(await balanceOf("acc_openZero")).toEqual({ account_id: "acc_openZero", balance_pence: 0, held_pence: 0, available_pence: 0 });
    expect(await credits("acc_openZero")).toBe(0);
    expect(await service.db.account.findUniqueOrThrow({ where: { id: "acc_openZero" } })).toMatchObject({ name: "Agent Ltd" });
  });

  it("credits the opening balance once, however often (and concurrently) the call is retried", async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => open("acc_openFunded", 2500)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await open("acc_openFunded", 2500)).toEqual({ account_id: "acc_openFunded", created: false });
    expect(await balanceOf("acc_openFunded")).toMatchObject({ balance_pence: 2500, available_pence: 2500 });
    expect(await credits("acc_openFunded")).toBe(1);
    const opening = await service.db.topUp.findUniqueOrThrow({ where: { paymentId: "opening_acc_openFunded" } });
    expect(opening).toMatchObject({ source: "opening", amountPence: 2500n });
  });

  it("refuses a different opening balance for an open account and changes nothing", async () => {
    await open("acc_openConflict", 1000);
    const refusal = await open("acc_openConflict", 9000).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: "IDEMPOTENCY_KEY_CONFLICT", retryable: false });
    expect(await balanceOf("acc_openConflict")).toMatchObject({ balance_pence: 1000 });
  });

  it("refuses what the contract refuses before it reaches billing", async () => {
    await expect(open("not-an-account")).rejects.toMatchObject({ reason: "invalid_message" });
    await expect(open("acc_openBad", -1)).rejects.toMatchObject({ reason: "invalid_message" });
    await expect(open("acc_openBad", 10, "   ")).rejects.toMatchObject({ reason: "invalid_message" });
  });
});
