import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkInputError } from "../errors.ts";
import { maskGatewayPassword, PASSWORD_MASK } from "../secrets/mask-gateway-password.ts";
import { buildCt600DataResponse } from "./answers/data-response.ts";
import { buildCt600ErrorResponse } from "./answers/error-response.ts";
import { taxError } from "./answers/error-catalog.ts";
import { CT600_CLASS } from "./constants.ts";
import { buildCt600DataRequest } from "./data-request.ts";
import { DATA_REQUEST_STATUS } from "./data-request-status.ts";
import { formatGovTalkTimeStamp, parseGovTalkTimeStamp } from "./govtalk-timestamp.ts";
import { parseCt600DataRequest } from "./parse-data-request.ts";
import { parseCt600DataResponse } from "./parse-data-response.ts";
import { parseCt600Request } from "./parse-request.ts";

describe("DATA_REQUEST: the list of a sender's CT600 submissions", () => {
  it("is a request/list of the CT class with the sender's clear credentials, an empty CorrelationID and no keys", () => {
    const { xml } = buildCt600DataRequest({ senderId: "GGUSER01", password: "correct horse", gatewayTest: true });
    const envelope = readGovTalkEnvelope(xml);
    expect(envelope).toMatchObject({
      envelopeVersion: "2.0",
      class: CT600_CLASS,
      qualifier: "request",
      function: "list",
      correlationId: "",
      gatewayTest: true,
      keys: [],
    });
    expect(envelope.sender).toMatchObject({
      senderId: "GGUSER01",
      authentications: [{ method: "clear", role: "Principal", value: "correct horse" }],
    });
    const read = parseCt600DataRequest(xml);
    expect(read).toMatchObject({ kind: "list", senderId: "GGUSER01", start: undefined, end: undefined });
    // Not one of the requests parseCt600Request knows (submit, poll, delete).
    expect(() => parseCt600Request(xml)).toThrow(/unsupported request/);
  });

  it("masks the password in maskedXml only, exactly as maskGatewayPassword would, escaping it in xml", () => {
    const password = `p&<>"'ss word`;
    const { xml, maskedXml } = buildCt600DataRequest({ senderId: "GGUSER01", password, gatewayTest: false });
    expect(readGovTalkEnvelope(xml).sender?.authentications[0]?.value).toBe(password);
    expect(maskedXml).not.toContain("ss word");
    expect(maskedXml).toContain(`<Value>${PASSWORD_MASK}</Value>`);
    expect(maskGatewayPassword(xml)).toBe(maskedXml);
  });

  it("writes the window in UK local time, read back to the same instants", () => {
    const start = Date.UTC(2026, 6, 1, 8, 30, 5); // BST: 09:30:05 in London
    const end = Date.UTC(2026, 11, 24, 23, 59, 59); // GMT
    const { xml } = buildCt600DataRequest({
      senderId: "S",
      password: "p",
      gatewayTest: true,
      startTimeStamp: new Date(start),
      endTimeStamp: end,
    });
    expect(xml).toContain("<StartDate>01/07/2026</StartDate>");
    expect(xml).toContain("<StartTime>09:30:05</StartTime>");
    expect(xml).toContain("<EndDate>24/12/2026</EndDate>");
    expect(parseCt600DataRequest(xml)).toMatchObject({
      start: { text: "01/07/2026 09:30:05", at: start },
      end: { text: "24/12/2026 23:59:59", at: end },
    });
  });

  it("names input fields in errors, never the password", () => {
    try {
      buildCt600DataRequest({ senderId: "", password: "secret-pass", gatewayTest: true });
      throw new Error("expected an input error");
    } catch (error) {
      expect(error).toBeInstanceOf(GovTalkInputError);
      expect(String((error as Error).message)).toContain("senderId");
      expect(String((error as Error).message)).not.toContain("secret-pass");
    }
  });
});

describe("the engine's answer to a DATA_REQUEST", () => {
  it("lists each StatusRecord: correlation ID, transaction ID, time stamp and status", () => {
    const xml = buildCt600DataResponse({
      senderId: "GGUSER01",
      startTimeStamp: "25/11/2026 15:00:00",
      endTimeStamp: "25/11/2026 16:00:00",
      records: [
        {
          timestamp: "25/11/2026 15:10:00",
          correlationId: "0A1B",
          transactionId: "ABCDEF0123456789ABCDEF0123456789",
          status: DATA_REQUEST_STATUS.acknowledged,
        },
        { timestamp: "25/11/2026 15:20:00", correlationId: "0A1C", status: DATA_REQUEST_STATUS.response },
      ],
      gatewayTimestamp: "",
    });
    expect(readGovTalkEnvelope(xml)).toMatchObject({ qualifier: "response", function: "list", class: CT600_CLASS });
    expect(parseCt600DataResponse(xml)).toEqual({
      type: "list",
      senderId: "GGUSER01",
      startTimeStamp: "25/11/2026 15:00:00",
      endTimeStamp: "25/11/2026 16:00:00",
      records: [
        {
          correlationId: "0A1B",
          transactionId: "ABCDEF0123456789ABCDEF0123456789",
          timestamp: "25/11/2026 15:10:00",
          status: "SUBMISSION_ACKNOWLEDGE",
        },
        { correlationId: "0A1C", transactionId: undefined, timestamp: "25/11/2026 15:20:00", status: "SUBMISSION_RESPONSE" },
      ],
    });
  });

  it("reads the Gift Aid DATA_REQUEST answer of HMRC's development gateway (testdata/hmrc/SOURCES.md)", () => {
    const xml = readFileSync(new URL("../../testdata/hmrc/gift-aid-data-request-response.xml", import.meta.url), "utf8");
    const answer = parseCt600DataResponse(xml);
    if (answer.type !== "list") throw new Error(`expected a list, got ${answer.type}`);
    // Empty SenderID and window elements are absent values, not "".
    expect(answer).toMatchObject({ senderId: undefined, startTimeStamp: undefined, endTimeStamp: undefined });
    expect(answer.records).toHaveLength(6);
    expect(answer.records[0]).toEqual({
      correlationId: "723F63DC1F4F4133A26EEF5E169BADF3",
      transactionId: "A130814001",
      timestamp: "14/08/2013 14:34:47",
      status: "SUBMISSION_RESPONSE",
    });
    expect(answer.records[5]).toMatchObject({ transactionId: "A4BEBA03C9FC44D78940C89373D465FE", status: DATA_REQUEST_STATUS.response });
    expect(parseGovTalkTimeStamp(answer.records[5]?.timestamp ?? "")).toBe(Date.UTC(2013, 7, 15, 14, 17, 45));
  });

  it("reads a StatusReport in another namespace (prefixed) and an empty one", () => {
    const xml = `<?xml version="1.0"?><GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><EnvelopeVersion>2.0</EnvelopeVersion><Header><MessageDetails><Class>HMRC-CT-CT600</Class><Qualifier>response</Qualifier><Function>list</Function></MessageDetails></Header><GovTalkDetails><Keys/></GovTalkDetails><Body><s:StatusReport xmlns:s="urn:example"><s:SenderID>X</s:SenderID><s:StatusRecord><s:TimeStamp>01/01/2026 00:00:01</s:TimeStamp><s:CorrelationID>FF</s:CorrelationID><s:TransactionID/><s:Status>SUBMISSION_ERROR</s:Status></s:StatusRecord></s:StatusReport></Body></GovTalkMessage>`;
    expect(parseCt600DataResponse(xml)).toMatchObject({
      type: "list",
      senderId: "X",
      records: [{ correlationId: "FF", transactionId: undefined, status: "SUBMISSION_ERROR" }],
    });
    const empty = buildCt600DataResponse({ senderId: "X", startTimeStamp: "a", endTimeStamp: "b", records: [] });
    expect(parseCt600DataResponse(empty)).toMatchObject({ type: "list", records: [] });
  });

  it("classifies GovTalk errors as any answer: 1046 authentication, 1000 transient", () => {
    const refused = parseCt600DataResponse(
      buildCt600ErrorResponse({ errors: [taxError(1046)], function: "list", class: "UndefinedClass" }),
    );
    expect(refused).toMatchObject({ type: "error", classification: { kind: "authentication", retryable: false } });
    const failed = parseCt600DataResponse(buildCt600ErrorResponse({ errors: [taxError(1000)], function: "list" }));
    expect(failed).toMatchObject({ type: "error", classification: { kind: "transient", retryable: true } });
  });

  it("refuses a response without a StatusReport, and text that is not GovTalk", () => {
    const noReport = buildCt600DataResponse({ senderId: "X", startTimeStamp: "a", endTimeStamp: "b", records: [] }).replace(
      /<StatusReport>[\s\S]*<\/StatusReport>/,
      "",
    );
    expect(() => parseCt600DataResponse(noReport)).toThrow(/StatusReport/);
    expect(() => parseCt600DataResponse("<html/>")).toThrow(/not a GovTalk message/);
  });
});

describe("GovTalk time stamps (dd/mm/yyyy hh:mm:ss, UK local time)", () => {
  it.each([
    [Date.UTC(2026, 0, 15, 12, 0, 0), "15/01/2026 12:00:00"],
    [Date.UTC(2026, 6, 15, 12, 0, 0), "15/07/2026 13:00:00"],
    [Date.UTC(2026, 2, 29, 0, 59, 59), "29/03/2026 00:59:59"], // last GMT second before the clocks go forward
    [Date.UTC(2026, 2, 29, 1, 0, 0), "29/03/2026 02:00:00"],
    [Date.UTC(2026, 9, 25, 1, 0, 0), "25/10/2026 01:00:00"], // after the clocks went back (GMT)
  ])("formats %s as %s and reads it back", (instant, text) => {
    expect(formatGovTalkTimeStamp(instant)).toBe(text);
    expect(parseGovTalkTimeStamp(text)).toBe(instant === Date.UTC(2026, 9, 25, 1, 0, 0) ? Date.UTC(2026, 9, 25, 0, 0, 0) : instant);
  });

  it("refuses other text and impossible dates", () => {
    for (const text of ["2026-01-01T00:00:00", "31/02/2026 10:00:00", "01/01/2026 24:00:00", ""])
      expect(parseGovTalkTimeStamp(text)).toBeUndefined();
  });
});
