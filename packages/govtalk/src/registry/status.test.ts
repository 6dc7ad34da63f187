import { GovTalkInputError } from "../errors.ts";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GovTalkXmlError } from "../errors.ts";
import { presenter } from "../test-support/registry-input.ts";
import {
  REGISTRY_ERRORS,
  buildAccountsSubmissionAcknowledgement,
  buildRegistryErrorResponse,
  buildSubmissionStatusResponse,
} from "./answers.ts";
import { parseRegistryRequest } from "./parse-request.ts";
import { parseAccountsSubmissionResponse, parseSubmissionStatusResponse } from "./parse-response.ts";
import { registryStatusOutcome } from "./status.ts";
import { buildSubmissionStatusRequest, createSubmissionStatusRequestBuilder } from "./status-request.ts";

describe("GetSubmissionStatus", () => {
  it("builds the poll by submission number, then PresenterID, with hashed credentials", () => {
    const request = parseRegistryRequest(
      buildSubmissionStatusRequest({ presenter, transactionId: "1F", gatewayTest: false, submissionNumber: "00001A" }),
    );
    expect(request).toMatchObject({
      kind: "GetSubmissionStatus",
      submissionNumber: "00001A",
      companyNumber: undefined,
      presenterId: presenter.presenterId,
      gatewayTest: false,
      transactionId: "1F",
      authenticationMethod: "clear",
      senderId: createHash("md5").update(presenter.presenterId).digest("hex"),
      envelope: { envelopeVersion: "1.0", class: "GetSubmissionStatus", qualifier: "request" },
    });
  });

  it("sends the presenter's configured method, CHMD5, with the same hashed values", () => {
    const request = parseRegistryRequest(
      buildSubmissionStatusRequest({
        presenter: { ...presenter, authMethod: "CHMD5" },
        transactionId: "1F",
        gatewayTest: false,
        submissionNumber: "00001A",
      }),
    );
    expect(request).toMatchObject({
      authenticationMethod: "CHMD5",
      authenticationValue: createHash("md5").update(presenter.presenterAuthCode).digest("hex"),
    });
    const templated = createSubmissionStatusRequestBuilder({ presenter: { ...presenter, authMethod: "CHMD5" }, gatewayTest: false });
    expect(parseRegistryRequest(templated({ transactionId: "1F", submissionNumber: "00001A" }))).toMatchObject({
      authenticationMethod: "CHMD5",
    });
  });

  it("builds the poll by company number", () => {
    const request = parseRegistryRequest(
      buildSubmissionStatusRequest({ presenter, transactionId: "2A", gatewayTest: true, companyNumber: "SC000001" }),
    );
    expect(request).toMatchObject({ kind: "GetSubmissionStatus", companyNumber: "SC000001", submissionNumber: undefined });
  });

  it.each([
    ["ACCEPT", "accepted"],
    ["REJECT", "rejected"],
    ["PENDING", "pending"],
    ["PARKED", "pending"],
    ["INTERNAL_FAILURE", "error"],
    ["SOMETHING_NEW", "unknown"],
  ])("maps status %s to outcome %s", (code, outcome) => {
    expect(registryStatusOutcome(code)).toBe(outcome);
  });

  it("reads every status code, with rejections and examiner, from the answers built for the simulator", () => {
    const xml = buildSubmissionStatusResponse({
      transactionId: "1F",
      statuses: [
        { submissionNumber: "000001", statusCode: "ACCEPT", companyNumber: "00000001" },
        {
          submissionNumber: "000002",
          statusCode: "REJECT",
          companyNumber: "SC000002",
          rejections: [
            { rejectCode: "0001", description: "Company dissolved", instanceNumber: "1" },
            { rejectCode: "9999", description: "Other & <more>" },
          ],
          examiner: { telephone: "0303 1234 500", comment: "See rejection" },
        },
        { submissionNumber: "000003", statusCode: "PENDING" },
        { submissionNumber: "000004", statusCode: "PARKED" },
        { submissionNumber: "000005", statusCode: "INTERNAL_FAILURE" },
      ],
    });
    const answer = parseSubmissionStatusResponse(xml);
    expect(answer.type).toBe("status");
    if (answer.type !== "status") return;
    expect(answer.statuses.map((status) => [status.submissionNumber, status.statusCode, status.outcome])).toEqual([
      ["000001", "ACCEPT", "accepted"],
      ["000002", "REJECT", "rejected"],
      ["000003", "PENDING", "pending"],
      ["000004", "PARKED", "pending"],
      ["000005", "INTERNAL_FAILURE", "error"],
    ]);
    expect(answer.statuses[0]).toMatchObject({ companyNumber: "00000001", rejections: [], examiner: undefined });
    expect(answer.statuses[1]).toMatchObject({
      companyNumber: "SC000002",
      rejections: [
        { rejectCode: "0001", description: "Company dissolved", instanceNumber: "1" },
        { rejectCode: "9999", description: "Other & <more>", instanceNumber: undefined },
      ],
      examiner: { telephone: "0303 1234 500", comment: "See rejection" },
    });
  });

  it("reads an Authorisation Failure (502) as a non-retryable authentication error", () => {
    const xml = buildRegistryErrorResponse({ class: "GetSubmissionStatus", transactionId: "1F", errors: [REGISTRY_ERRORS[502]] });
    expect(parseSubmissionStatusResponse(xml)).toMatchObject({
      type: "error",
      transactionId: "1F",
      errors: [{ number: 502, type: "fatal", text: "Authorisation Failure" }],
      classification: { kind: "authentication", retryable: false },
    });
  });

  it("refuses a status answer without SubmissionStatus", () => {
    expect(() => parseSubmissionStatusResponse(buildAccountsSubmissionAcknowledgement({ transactionId: "1" }))).toThrow(GovTalkXmlError);
  });
});

describe("accounts submission answers", () => {
  it("reads the acknowledgement", () => {
    expect(
      parseAccountsSubmissionResponse(
        buildAccountsSubmissionAcknowledgement({ transactionId: "0A1B", gatewayTest: true, gatewayTimestamp: "2026-01-01T00:00:00" }),
      ),
    ).toEqual({
      type: "acknowledgement",
      transactionId: "0A1B",
    });
  });

  it.each([
    [REGISTRY_ERRORS[502], "authentication", false],
    [{ raisedBy: "Gateway", number: 100, type: "fatal", text: "Invalid request" }, "protocol", false],
    [{ raisedBy: "Gateway", number: 9999, type: "recoverable", text: "Please retry later" }, "transient", true],
  ] as const)("classifies gateway error %o", (error, kind, retryable) => {
    const answer = parseAccountsSubmissionResponse(
      buildRegistryErrorResponse({ class: "Accounts", transactionId: "0A1B", errors: [error] }),
    );
    expect(answer).toMatchObject({ type: "error", classification: { kind, retryable } });
  });
});

describe("createSubmissionStatusRequestBuilder", () => {
  it.each([
    ["with an e-mail address", { ...presenter, emailAddress: "filings@example.com" }, true],
    ["with characters to escape in the presenter ID", { presenterId: "A&B<1>", presenterAuthCode: "x" }, false],
  ])("writes the same text as buildSubmissionStatusRequest (%s)", (_case, who, gatewayTest) => {
    const build = createSubmissionStatusRequestBuilder({ presenter: who, gatewayTest });
    for (const query of [
      { transactionId: "1F", submissionNumber: "00001A" },
      { transactionId: "0123456789ABCDEF0123456789ABCDEF", submissionNumber: "ZZZZZZ" },
      { transactionId: "2A", companyNumber: "SC000001" },
    ]) {
      expect(build(query)).toBe(buildSubmissionStatusRequest({ presenter: who, gatewayTest, ...query }));
    }
  });

  it("refuses a malformed TransactionID or number, and a malformed presenter when made", () => {
    const build = createSubmissionStatusRequestBuilder({ presenter, gatewayTest: true });
    expect(() => build({ transactionId: "1f", submissionNumber: "00001A" })).toThrow(GovTalkInputError);
    expect(() => build({ transactionId: "1F", submissionNumber: "00001a" })).toThrow(GovTalkInputError);
    expect(() => build({ transactionId: "1F", submissionNumber: "<x/>AB" })).toThrow(GovTalkInputError);
    expect(() => build({ transactionId: "1F", companyNumber: "SC00001" })).toThrow(GovTalkInputError);
    expect(() =>
      createSubmissionStatusRequestBuilder({ presenter: { presenterId: "", presenterAuthCode: "x" }, gatewayTest: true }),
    ).toThrow(GovTalkInputError);
  });
});
