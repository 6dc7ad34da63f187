import { AppError } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { AuthorityCallAbortedError, AuthorityRequestError, AuthorityUnavailableError } from "./errors.ts";
import { submitFailure, type SubmitFailureOptions } from "./submit-failure.ts";
import { SubmissionBlockedError } from "./submit-once.ts";

const tax: SubmitFailureOptions = {
  unavailableCode: "TAX_UNAVAILABLE",
  authority: "tax authority",
  defaultRetryAfterSeconds: 30,
  repeatInDoubt: "never",
};
const registry: SubmitFailureOptions = { ...tax, unavailableCode: "REGISTRY_UNAVAILABLE", authority: "registry", repeatInDoubt: "safe" };

describe("submitFailure", () => {
  it("breaker open or authority down, nothing taken: *_UNAVAILABLE, retryable, with the time to wait", () => {
    const open = new AuthorityUnavailableError("breaker_open", "open", { maybeReceived: false, retryAfterSeconds: 12 });
    expect(submitFailure(open, tax)).toMatchObject({
      kind: "unavailable",
      error: { code: "TAX_UNAVAILABLE", retryable: true, retryAfterSeconds: 12 },
    });
    const down = new AuthorityUnavailableError("http_status", "503", { maybeReceived: false });
    expect(submitFailure(down, registry).error).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryable: true, retryAfterSeconds: 30 });
  });

  it("in doubt: never repeated at the tax authority, safely repeated at the registry", () => {
    const timeout = new AuthorityUnavailableError("timeout", "no answer", { maybeReceived: true });
    expect(submitFailure(timeout, tax)).toMatchObject({ kind: "in_doubt", error: { code: "TAX_UNAVAILABLE", retryable: false } });
    expect(submitFailure(new SubmissionBlockedError("uncertain", "x"), tax).error.retryable).toBe(false);
    expect(submitFailure(timeout, registry)).toMatchObject({ kind: "in_doubt", error: { code: "REGISTRY_UNAVAILABLE", retryable: true } });
    expect(submitFailure(new AuthorityCallAbortedError("tax-submission", undefined), tax)).toMatchObject({
      kind: "in_doubt",
      error: { retryable: false },
    });
  });

  it("another attempt in progress: in doubt where a repeat is never safe (it may reach the authority), else retry shortly", () => {
    // Never "nothing was sent" for the tax authority: the caller would drop a filing the authority may receive.
    expect(submitFailure(new SubmissionBlockedError("in_progress", "x"), tax)).toMatchObject({
      kind: "in_progress",
      error: { code: "TAX_UNAVAILABLE", retryable: false },
    });
    expect(submitFailure(new SubmissionBlockedError("in_progress", "x"), registry).error).toMatchObject({
      code: "REGISTRY_UNAVAILABLE",
      retryable: true,
      retryAfterSeconds: 5,
    });
  });

  it("passes classified refusals through; HTTP 4xx and our own failures are internal", () => {
    const refused = new AppError("TAX_AUTH_FAILED", "refused", { retryable: false });
    expect(submitFailure(refused, tax).error).toBe(refused);
    expect(submitFailure(new AuthorityRequestError(400, "bad"), tax).error).toMatchObject({ code: "INTERNAL_ERROR", retryable: false });
    expect(submitFailure(new Error("redis down"), tax).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true });
  });

  it("never shows internals such as host names", () => {
    const error = new AuthorityUnavailableError("network", "connection to 10.0.0.5:443 failed", { maybeReceived: false });
    expect(submitFailure(error, tax).error.message).not.toContain("10.0.0.5");
  });
});
