import { AppError } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness } from "../test-support/harness.ts";

// Nothing serves billing.rpc or tax.submit in this vhost: every submit that passes validation
// fails at the hold, which is a real case (billing down) and must leave nothing behind.
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("unavailable");
});
afterAll(async () => {
  await h?.teardown();
});

const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("the submit succeeded"), (error: unknown) => error as AppError);

describe("submit validation against the registry", () => {
  it("refuses a company the registry does not know", async () => {
    const error = await failure(h.submitCt600(h.caller(), { company_number: "99999999", utr: "1234567890", period_end: "2026-03-31" }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "company_number", message: "company 99999999 is not known to the registry" }] });
  });

  it("refuses a period end in the future and a period that ends before it starts", async () => {
    const future = await failure(h.submitCt600(h.caller(), { company_number: "00000001", utr: "1234567890", period_end: "2099-03-31" }));
    expect(future.code).toBe("VALIDATION_ERROR");
    expect(future.details).toContainEqual({ field: "period_end", message: expect.stringMatching(/in the future/) });
    // 00000005 was incorporated on 2025-05-12: a period ending before that ends before it starts.
    const backwards = await failure(h.submitCt600(h.caller(), { company_number: "00000005", utr: "1234567890", period_end: "2025-03-31" }));
    expect(backwards.code).toBe("VALIDATION_ERROR");
    expect(backwards.details).toContainEqual({ field: "period.start", message: "period start 2025-05-12 is after period end 2025-03-31" });
  });

  it("answers SERVICE_UNAVAILABLE with Retry-After when billing is out of reach, and keeps nothing", async () => {
    const error = await failure(h.submitCt600(h.caller(), { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" }));
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryAfterSeconds: 30 });
    expect(await h.service.db.filing.count()).toBe(0);
  });
});
