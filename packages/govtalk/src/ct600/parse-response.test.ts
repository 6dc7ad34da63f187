import { describe, expect, it } from "vitest";
import { GovTalkXmlError } from "../errors.ts";
import { computeIRmark } from "../irmark/compute.ts";
import { nilReturnInput } from "../test-support/ct600-input.ts";
import { readHmrcTestdata } from "../test-support/testdata.ts";
import { buildCt600Acknowledgement } from "./answers/acknowledgement.ts";
import { buildCt600DeleteResponse } from "./answers/delete-response.ts";
import { taxError, taxRuleError } from "./answers/error-catalog.ts";
import { buildCt600ErrorResponse } from "./answers/error-response.ts";
import { buildCt600SuccessResponse } from "./answers/success-response.ts";
import { receiptConfirmsIRmark } from "./irmark-receipt.ts";
import { parseCt600Response } from "./parse-response.ts";
import { buildCt600SubmitMessage } from "./submit-message.ts";

describe("parseCt600Response on the tax authority's own answers", () => {
  it("reads the success response: receipt IRmark (base64 and base32) and AcceptedTime", () => {
    const response = parseCt600Response(readHmrcTestdata("tpvs-success-response.xml"));
    expect(response.type).toBe("success");
    if (response.type !== "success") return;
    expect(response.receipt.digestBase64).toBe("YrgW02ybxWOff7gHrELynhp1gRw=");
    expect(response.receipt.irmarkBase32).toBe("MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4");
    expect(response.acceptedTime).toBe("2026-09-29T00:33:06.257");
    expect(response.correlationId).toBeUndefined();
    expect(response.messages.map((message) => message.code)).toEqual(["0000", "077001"]);
    const sent = computeIRmark(readHmrcTestdata("tpvs-accepted-sample.xml"));
    expect(receiptConfirmsIRmark(response.receipt, sent)).toBe(true);
    expect(receiptConfirmsIRmark(response.receipt, computeIRmark(buildCt600SubmitMessage(nilReturnInput()).xml))).toBe(false);
  });

  it("reads the business errors response as a non-retryable business rejection with its itemised errors", () => {
    const response = parseCt600Response(readHmrcTestdata("tpvs-business-errors-response.xml"));
    expect(response.type).toBe("error");
    if (response.type !== "error") return;
    expect(response.errors).toEqual([
      {
        raisedBy: "ChRIS",
        number: 3001,
        type: "business",
        text: "Your submission failed due to business validation errors. Please see below for details.",
        location: "",
      },
    ]);
    expect(response.details).toHaveLength(7);
    expect(response.details[0]).toMatchObject({ raisedBy: "ChRIS", number: 9200, type: "business" });
    expect(response.details[0]?.location).toBe(
      "/hd:GovTalkMessage[1]/hd:Body[1]/ct:IRenvelope[1]/ct:CompanyTaxReturn[1]/ct:CompanyTaxCalculation[1]/ct:CorporationTaxChargeable[1]/ct:FinancialYearOne[1]/ct:Details[1]/ct:TaxRate[1]",
    );
    expect(response.details[1]).toEqual({
      raisedBy: "ChRIS",
      number: 0,
      type: "xbrl.ixbrl.HeaderAbsent",
      text: "ix:header element not found in input document set.",
      location: "Accounts",
    });
    expect(response.classification).toMatchObject({ kind: "business", retryable: false });
    expect(response.classification.decisive?.number).toBe(3001);
  });

  it("reads the authentication failure (1046) as a non-retryable authentication error, despite its odd envelope", () => {
    const response = parseCt600Response(readHmrcTestdata("ets-authentication-failure-response.xml"));
    expect(response.type).toBe("error");
    if (response.type !== "error") return;
    expect(response.errors).toEqual([
      {
        raisedBy: "Gateway",
        number: 1046,
        type: "fatal",
        text: "Authentication Failure. The supplied user credentials failed validation for the requested service.",
        location: "",
      },
    ]);
    expect(response.details).toEqual([]);
    expect(response.responseEndPoint).toBe("https://test-transaction-engine.tax.service.gov.uk/submission");
    expect(response.classification).toMatchObject({ kind: "authentication", retryable: false });
    expect(response.classification.summary).toMatch(/^1046 Authentication Failure/);
  });
});

describe("parseCt600Response on the answers built for the simulator", () => {
  it("reads an acknowledgement: CorrelationID, PollInterval and endpoint", () => {
    const xml = buildCt600Acknowledgement({
      correlationId: "0A1B2C3D4E5F",
      pollIntervalSeconds: 7,
      responseEndPoint: "http://127.0.0.1:4010/poll",
      gatewayTimestamp: "2026-01-02T03:04:05.678",
    });
    expect(parseCt600Response(xml)).toEqual({
      type: "acknowledgement",
      correlationId: "0A1B2C3D4E5F",
      pollIntervalSeconds: 7,
      responseEndPoint: "http://127.0.0.1:4010/poll",
      gatewayTimestamp: "2026-01-02T03:04:05.678",
    });
  });

  it("uses the envelope's default poll interval of 2 s when the acknowledgement gives none", () => {
    const xml = buildCt600Acknowledgement({ correlationId: "AB", pollIntervalSeconds: 5, responseEndPoint: "x" }).replace(
      ' PollInterval="5"',
      "",
    );
    expect(parseCt600Response(xml)).toMatchObject({ type: "acknowledgement", pollIntervalSeconds: 2 });
  });

  it("reads a success response whose receipt confirms the submitted IRmark", () => {
    const { irmark } = buildCt600SubmitMessage(nilReturnInput());
    const xml = buildCt600SuccessResponse({
      correlationId: "ABC123",
      irmark: irmark.base64,
      utr: "8596148860",
      acceptedTime: "2026-03-04T09:05:00.123",
    });
    const response = parseCt600Response(xml);
    expect(response).toMatchObject({ type: "success", correlationId: "ABC123", acceptedTime: "2026-03-04T09:05:00.123" });
    if (response.type !== "success") return;
    expect(response.receipt).toMatchObject({ digestBase64: irmark.base64, irmarkBase32: irmark.base32 });
    expect(response.receipt.message).toContain("ref: 8596148860 at 09.05 on 04/03/2026");
    expect(receiptConfirmsIRmark(response.receipt, irmark)).toBe(true);
  });

  it.each([
    [1000, "transient", true],
    [1001, "schema", false],
    [1020, "protocol", false],
    [1046, "authentication", false],
    [2000, "protocol", false],
    [2021, "protocol", false],
    [2022, "protocol", false],
    [3304, "business", false],
  ] as const)("classifies error %i as %s (retryable %s)", (number, kind, retryable) => {
    const response = parseCt600Response(buildCt600ErrorResponse({ correlationId: "", errors: [taxError(number)] }));
    expect(response).toMatchObject({ type: "error", classification: { kind, retryable } });
    if (response.type === "error") expect(response.errors[0]?.number).toBe(number);
  });

  it("reads a 3001 with its ErrorResponse rule details", () => {
    const xml = buildCt600ErrorResponse({
      errors: [taxError(3001)],
      details: [
        taxRuleError(9100, "The UTR key must equal the Reference", "/hd:GovTalkMessage[1]/hd:Body[1]"),
        taxRuleError(9101, "Period longer than 12 months"),
      ],
    });
    const response = parseCt600Response(xml);
    expect(response).toMatchObject({ type: "error", classification: { kind: "business", retryable: false } });
    if (response.type !== "error") return;
    expect(response.details.map((detail) => [detail.number, detail.location])).toEqual([
      [9100, "/hd:GovTalkMessage[1]/hd:Body[1]"],
      [9101, ""],
    ]);
  });

  it("reads a delete confirmation", () => {
    expect(parseCt600Response(buildCt600DeleteResponse({ correlationId: "ABC123" }))).toEqual({ type: "deleted", correlationId: "ABC123" });
  });

  it.each([
    ["not XML", "<html>Bad gateway"],
    ["a request", buildCt600SubmitMessage(nilReturnInput()).xml],
    [
      "an acknowledgement without CorrelationID",
      buildCt600Acknowledgement({ correlationId: "", pollIntervalSeconds: 1, responseEndPoint: "x" }),
    ],
  ])("refuses %s", (_name, xml) => {
    expect(() => parseCt600Response(xml)).toThrow(GovTalkXmlError);
  });
});
