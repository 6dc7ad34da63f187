import { BusUnavailableError, RpcConnectionLostError, RpcNoServerError, RpcTimeoutError } from "@dormant/bus";
import { AppError } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { classifyHoldFailure, classifySubmitterFailure } from "./failures.ts";

describe("submitter failures", () => {
  it("know that nothing was done when nobody served the queue or the authority certainly took nothing", () => {
    expect(classifySubmitterFailure(new RpcNoServerError("tax.submit_part", "tax.submit"), "tax")).toMatchObject({
      certainty: "not-done",
      publicError: { code: "TAX_UNAVAILABLE", retryAfterSeconds: 30 },
      filingError: { code: "AUTHORITY_UNAVAILABLE" },
      // The bus speaks of this call only: an earlier request's attempt may still be at the authority.
      coversEarlierAttempts: false,
    });
    expect(classifySubmitterFailure(new BusUnavailableError("registry.submit_accounts", 10), "registry").publicError.code).toBe(
      "REGISTRY_UNAVAILABLE",
    );
    const down = classifySubmitterFailure(new AppError("TAX_UNAVAILABLE", "down", { retryable: true, retryAfterSeconds: 12 }), "tax");
    expect(down).toMatchObject({
      certainty: "not-done",
      publicError: { code: "TAX_UNAVAILABLE", retryAfterSeconds: 12 },
      // The submitter's own answer: its ledger settled every earlier attempt at the part first.
      coversEarlierAttempts: true,
    });
    const refused = classifySubmitterFailure(new AppError("TAX_AUTH_FAILED", "refused", { retryable: false }), "tax");
    expect(refused).toMatchObject({
      certainty: "not-done",
      publicError: { code: "TAX_AUTH_FAILED", retryAfterSeconds: 30 },
      filingError: { code: "CREDENTIALS_INVALID" },
    });
    expect(classifySubmitterFailure(new AppError("VALIDATION_ERROR", "refused", { retryable: false }), "registry").certainty).toBe(
      "not-done",
    );
    expect(classifySubmitterFailure(new AppError("INTERNAL_ERROR", "presenter refused", { retryable: false }), "registry").certainty).toBe(
      "not-done",
    );
  });

  it("keep the filing when the submission may have reached the authority", () => {
    for (const error of [
      new RpcTimeoutError("tax.submit_part", 25_000),
      new RpcConnectionLostError("tax.submit_part"),
      new AppError("TAX_UNAVAILABLE", "in doubt", { retryable: false }),
      new AppError("REGISTRY_UNAVAILABLE", "down or in doubt", { retryable: true, retryAfterSeconds: 2 }),
      new AppError("SERVICE_UNAVAILABLE", "acknowledged, poll not scheduled", { retryable: true, retryAfterSeconds: 5 }),
      new AppError("INTERNAL_ERROR", "handler timed out", { retryable: true }),
      new Error("anything else"),
    ]) {
      const failure = classifySubmitterFailure(error, "tax");
      expect(failure.certainty).toBe("unknown");
      expect(failure.publicError).toBeInstanceOf(AppError);
    }
    expect(classifySubmitterFailure(new RpcTimeoutError("tax.submit_part", 25_000), "tax").publicError).toMatchObject({
      code: "TAX_UNAVAILABLE",
      retryAfterSeconds: 5,
    });
  });
});

describe("hold failures", () => {
  it("pass billing's answers through and turn billing out of reach into SERVICE_UNAVAILABLE", () => {
    const short = new AppError("INSUFFICIENT_BALANCE", "short", {
      details: [{ field: "balance", message: "x", required: "20.00", available: "10.00" }],
    });
    expect(classifyHoldFailure(short)).toMatchObject({ certainty: "not-done", publicError: short, coversEarlierAttempts: false });
    expect(classifyHoldFailure(new RpcNoServerError("billing.hold", "billing.rpc"))).toMatchObject({
      certainty: "not-done",
      publicError: { code: "SERVICE_UNAVAILABLE", retryAfterSeconds: 30 },
    });
    expect(classifyHoldFailure(new RpcTimeoutError("billing.hold", 5000))).toMatchObject({
      certainty: "unknown",
      publicError: { code: "SERVICE_UNAVAILABLE", retryAfterSeconds: 5 },
    });
  });
});
