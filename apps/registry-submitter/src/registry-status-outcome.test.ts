import {
  buildRegistryErrorResponse,
  buildSubmissionStatusResponse,
  parseSubmissionStatusResponse,
  REGISTRY_ERRORS,
  type RegistryStatusCode,
  type RegistrySubmissionStatus,
} from "@dormant/govtalk";
import { describe, expect, it } from "vitest";
import { registryErrorOutcome, registryHorizonOutcome, registryRefusalOutcome } from "./registry-status-outcome.ts";

/** A status exactly as the registry (and the simulator) writes it. */
function status(statusCode: RegistryStatusCode, rejections: { code: string; description: string }[] = []): RegistrySubmissionStatus {
  const xml = buildSubmissionStatusResponse({
    transactionId: "0A1B",
    gatewayTest: true,
    gatewayTimestamp: "2026-05-01T10:00:00.000Z",
    statuses: [
      {
        submissionNumber: "00ABCD",
        companyNumber: "00000001",
        statusCode,
        rejections: rejections.map((r, index) => ({ rejectCode: r.code, description: r.description, instanceNumber: String(index + 1) })),
      },
    ],
  });
  const answer = parseSubmissionStatusResponse(xml);
  if (answer.type !== "status" || !answer.statuses[0]) throw new Error("no status");
  return answer.statuses[0];
}

describe("registryErrorOutcome", () => {
  it.each([
    ["601", "AUTH_CODE_INVALID"],
    ["304", "COMPANY_DISSOLVED"],
    ["262", "PERIOD_ALREADY_FILED"],
    ["211", "REGISTRY_REJECTED"],
    ["310", "REGISTRY_REJECTED"],
  ] as const)("REJECT %s: rejected %s with the registry's description", (code, filingError) => {
    const outcome = registryErrorOutcome(status("REJECT", [{ code, description: `Reason ${code}.` }]));
    expect(outcome).toEqual({
      outcome: "rejected",
      registry_status: "REJECT",
      error: { code: filingError, message: `Reason ${code}.` },
      rejections: [{ code, description: `Reason ${code}.` }],
    });
  });

  it("several rejections: the most decisive code, every description", () => {
    const outcome = registryErrorOutcome(
      status("REJECT", [
        { code: "211", description: "Details differ." },
        { code: "601", description: "Code invalid." },
      ]),
    );
    expect(outcome.error).toEqual({ code: "AUTH_CODE_INVALID", message: "Details differ. Code invalid." });
  });

  it("INTERNAL_FAILURE: error AUTHORITY_UNAVAILABLE", () => {
    expect(registryErrorOutcome(status("INTERNAL_FAILURE"))).toMatchObject({
      outcome: "error",
      registry_status: "INTERNAL_FAILURE",
      error: { code: "AUTHORITY_UNAVAILABLE" },
    });
  });
});

describe("registryRefusalOutcome", () => {
  it("presenter credentials refused (502): error CREDENTIALS_INVALID", () => {
    const xml = buildRegistryErrorResponse({
      class: "GetSubmissionStatus",
      errors: [REGISTRY_ERRORS[502]],
      transactionId: "0A1B",
      gatewayTest: true,
      gatewayTimestamp: "2026-05-01T10:00:00.000Z",
    });
    const answer = parseSubmissionStatusResponse(xml);
    if (answer.type !== "error") throw new Error("not an error");
    expect(registryRefusalOutcome(answer)).toMatchObject({ outcome: "error", error: { code: "CREDENTIALS_INVALID" } });
  });
});

describe("registryHorizonOutcome (the polling horizon passed without a decision)", () => {
  const giveUpAt = "2026-05-15T10:00:00.000Z";

  it("the registry held the accounts PARKED: error REGISTRY_NO_DECISION with the last status, since when and the examiner's comment", () => {
    const command = {
      give_up_at: giveUpAt,
      reported_status: { code: "PARKED" as const, since: "2026-05-03T09:00:00.000Z", examiner_comment: "Held for examination" },
    };
    // Also when the last poll failed for a transient reason: the registry had said it holds them.
    for (const held of [true, false]) {
      const outcome = registryHorizonOutcome(command, "the registry did not answer (timeout)", held);
      expect(outcome).toMatchObject({
        outcome: "error",
        registry_status: "PARKED",
        error: { code: "REGISTRY_NO_DECISION" },
        rejections: [],
      });
      expect(outcome.error.message).toBe(
        "The registry had not decided on the accounts by 2026-05-15T10:00:00.000Z (the registry did not answer (timeout)). It was PARKED since 2026-05-03T09:00:00.000Z (examiner: Held for examination). It may still decide them: check the company's filing history before filing again.",
      );
    }
  });

  it("a status code this worker does not know, never reported: REGISTRY_NO_DECISION without a last status", () => {
    expect(registryHorizonOutcome({ give_up_at: giveUpAt }, "the registry had no final status", true)).toMatchObject({
      registry_status: "UNDECIDED",
      error: { code: "REGISTRY_NO_DECISION" },
    });
  });

  it("the registry never answered about the accounts (00000004) or never listed them: GATEWAY_TIMEOUT, as before", () => {
    expect(registryHorizonOutcome({ give_up_at: giveUpAt }, "the registry did not answer (timeout)", false)).toEqual({
      outcome: "error",
      registry_status: "TIMEOUT",
      error: {
        code: "GATEWAY_TIMEOUT",
        message: "The registry did not give a final status by 2026-05-15T10:00:00.000Z (the registry did not answer (timeout)).",
      },
      rejections: [],
    });
  });
});
