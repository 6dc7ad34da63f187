import { describe, expect, it } from "vitest";
import { GovTalkXmlError } from "../errors.ts";
import { nilReturnInput } from "../test-support/ct600-input.ts";
import { readHmrcTestdata } from "../test-support/testdata.ts";
import { buildCt600Acknowledgement } from "./answers/acknowledgement.ts";
import { buildCt600DeleteMessage } from "./delete-message.ts";
import { parseCt600Request } from "./parse-request.ts";
import { buildCt600PollMessage } from "./poll-message.ts";
import { buildCt600SubmitMessage } from "./submit-message.ts";

describe("parseCt600Request", () => {
  it("reads a built submission: credentials, keys, return data and a valid IRmark", () => {
    const { xml, irmark } = buildCt600SubmitMessage(nilReturnInput({ companyName: "Smith & Sons Ltd" }));
    const request = parseCt600Request(xml);
    expect(request).toMatchObject({
      kind: "submit",
      class: "HMRC-CT-CT600",
      gatewayTest: true,
      correlationId: "",
      senderId: "GGUSER01",
      authentication: { method: "clear", role: "Principal", value: "s3cret-P@ss&<word>" },
      utrKey: "8596148860",
      declaredIRmark: irmark.base64,
      computedIRmark: irmark,
      irmarkStatus: "valid",
      return: {
        utr: "8596148860",
        reference: "8596148860",
        periodEnd: "2025-03-31",
        periodFrom: "2024-04-01",
        periodTo: "2025-03-31",
        companyName: "Smith & Sons Ltd",
        companyNumber: "00000001",
        declarantName: "Ada Lovelace",
        declarantStatus: "Director",
      },
    });
  });

  it("reads the authority's sample submission", () => {
    const request = parseCt600Request(readHmrcTestdata("tpvs-accepted-sample.xml"));
    expect(request).toMatchObject({ kind: "submit", irmarkStatus: "valid", utrKey: "8596148860", return: { companyNumber: "12345678" } });
  });

  it("tells a wrong IRmark (2021) from a missing one (2022)", () => {
    const { xml, irmark } = buildCt600SubmitMessage(nilReturnInput());
    expect(parseCt600Request(xml.replace(irmark.base64, "AAAAAAAAAAAAAAAAAAAAAAAAAAA="))).toMatchObject({ irmarkStatus: "incorrect" });
    expect(parseCt600Request(xml.replace(`>${irmark.base64}<`, "><"))).toMatchObject({ irmarkStatus: "missing" });
    const tampered = parseCt600Request(xml.replace("<Total>0.00</Total>", "<Total>1.00</Total>"));
    expect(tampered).toMatchObject({ irmarkStatus: "incorrect", declaredIRmark: irmark.base64 });
  });

  it("reads polls and deletes with their CorrelationID", () => {
    expect(parseCt600Request(buildCt600PollMessage({ correlationId: "ABC", gatewayTest: false }))).toMatchObject({
      kind: "poll",
      correlationId: "ABC",
      gatewayTest: false,
    });
    expect(parseCt600Request(buildCt600DeleteMessage({ correlationId: "DEF", gatewayTest: true }))).toMatchObject({
      kind: "delete",
      correlationId: "DEF",
      gatewayTest: true,
    });
  });

  it("refuses malformed XML and messages that are not requests", () => {
    expect(() => parseCt600Request("<GovTalkMessage")).toThrow(GovTalkXmlError);
    expect(() =>
      parseCt600Request(buildCt600Acknowledgement({ correlationId: "A", pollIntervalSeconds: 1, responseEndPoint: "x" })),
    ).toThrow(GovTalkXmlError);
  });
});
