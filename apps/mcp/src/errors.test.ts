import { DormantApiError, FilingWaitTimeoutError } from "@dormant/client";
import { ErrorCode } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { NEXT_STEP_BY_CODE, toolError } from "./errors.ts";

function bodyOf(result: ReturnType<typeof toolError>): { error: Record<string, unknown> } {
  const [first] = result.content;
  if (first?.type !== "text") throw new Error("expected text content");
  return JSON.parse(first.text);
}

describe("toolError", () => {
  it("has a next step for every error code the API answers", () => {
    for (const code of ErrorCode.options) expect(NEXT_STEP_BY_CODE[code], code).toBeTruthy();
  });

  it("turns an API error into an error result with its code, details, request id and what to do next", () => {
    const error = new DormantApiError({
      status: 402,
      code: "INSUFFICIENT_BALANCE",
      message: "available balance is below the fee",
      details: [{ field: "balance", message: "too low", required: "20.00", available: "10.00" }],
      requestId: "req_1",
      idempotencyKey: "mcp-abc",
    });
    const result = toolError(error);
    expect(result.isError).toBe(true);
    expect(bodyOf(result).error).toMatchObject({
      code: "INSUFFICIENT_BALANCE",
      status: 402,
      request_id: "req_1",
      idempotency_key: "mcp-abc",
      details: [{ field: "balance", required: "20.00", available: "10.00" }],
      next_step: NEXT_STEP_BY_CODE.INSUFFICIENT_BALANCE,
    });
  });

  it("says a retryable failure can be retried after Retry-After", () => {
    const body = bodyOf(toolError(new DormantApiError({ status: 502, code: "TAX_UNAVAILABLE", message: "down", retryAfterSeconds: 30 })));
    expect(body.error).toMatchObject({ code: "TAX_UNAVAILABLE", retry_after_seconds: 30 });
    expect(String(body.error.next_step)).toMatch(/same arguments/);
  });

  it("names the filing of a submit in doubt, and says it will be settled and not to file again", () => {
    const details = [
      { field: "filing_id", message: "settled", filing_id: "fil_doubt1", filing_status: "pending" as const, in_doubt: true as const },
    ];
    const body = bodyOf(
      toolError(
        new DormantApiError({ status: 502, code: "TAX_UNAVAILABLE", message: "lost", details, retryAfterSeconds: 30, idempotencyKey: "k" }),
      ),
    );
    expect(body.error).toMatchObject({ code: "TAX_UNAVAILABLE", filing_id: "fil_doubt1", retry_after_seconds: 30, idempotency_key: "k" });
    expect(String(body.error.next_step)).toContain("fil_doubt1");
    expect(String(body.error.next_step)).toMatch(/settled with the authority and nothing will be sent twice/);
    expect(String(body.error.next_step)).toMatch(/Do not file again/);
  });

  it("reports a network failure without its message, and a wait that ran out", () => {
    expect(bodyOf(toolError(new TypeError("fetch failed: secret-host"))).error).toMatchObject({ code: "API_UNREACHABLE" });
    expect(JSON.stringify(toolError(new TypeError("fetch failed: secret-host")))).not.toContain("secret-host");
    expect(bodyOf(toolError(new FilingWaitTimeoutError("fil_1", 1000, undefined))).error).toMatchObject({ code: "WAIT_TIMED_OUT" });
  });
});
