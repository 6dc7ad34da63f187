import { describe, expect, it } from "vitest";
import { buildCt600PollMessage } from "../ct600/poll-message.ts";
import { buildCt600SubmitMessage } from "../ct600/submit-message.ts";
import { readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { computeIRmark } from "../irmark/compute.ts";
import { nilReturnInput } from "../test-support/ct600-input.ts";
import { readHmrcTestdata } from "../test-support/testdata.ts";
import { maskGatewayPassword, PASSWORD_MASK } from "./mask-gateway-password.ts";

describe("maskGatewayPassword", () => {
  it("masks the password of a built submission and changes nothing else", () => {
    const password = "P@ss<&>'\"word-1234";
    const { xml, irmark } = buildCt600SubmitMessage(nilReturnInput({ password }));
    const masked = maskGatewayPassword(xml);
    expect(masked).not.toContain("word-1234");
    expect(readGovTalkEnvelope(masked).sender?.authentications).toEqual([{ method: "clear", role: "Principal", value: PASSWORD_MASK }]);
    expect(masked.slice(masked.indexOf("<GovTalkDetails>"))).toBe(xml.slice(xml.indexOf("<GovTalkDetails>")));
    expect(computeIRmark(masked)).toEqual(irmark);
    expect(masked.length).toBe(xml.length - xml.match(/<Value>(.*)<\/Value>/)![1]!.length + PASSWORD_MASK.length);
  });

  it("masks the authority's sample", () => {
    const sample = readHmrcTestdata("tpvs-accepted-sample.xml");
    const masked = maskGatewayPassword(sample);
    expect(readGovTalkEnvelope(masked).sender?.authentications[0]?.value).toBe(PASSWORD_MASK);
    expect(computeIRmark(masked).base64).toBe("YrgW02ybxWOff7gHrELynhp1gRw=");
  });

  it("masks a prefixed envelope's Value and leaves Value elements of the Body alone", () => {
    const xml =
      '<gt:GovTalkMessage xmlns:gt="http://www.govtalk.gov.uk/CM/envelope"><gt:EnvelopeVersion>2.0</gt:EnvelopeVersion>' +
      "<gt:Header><gt:MessageDetails><gt:Class>HMRC-CT-CT600</gt:Class><gt:Qualifier>request</gt:Qualifier></gt:MessageDetails>" +
      "<gt:SenderDetails><gt:IDAuthentication><gt:SenderID>user</gt:SenderID><gt:Authentication><gt:Method>clear</gt:Method>" +
      "<gt:Value>&lt;Value&gt;secret</gt:Value></gt:Authentication></gt:IDAuthentication></gt:SenderDetails></gt:Header>" +
      '<gt:GovTalkDetails/><gt:Body><IRenvelope xmlns="http://www.govtalk.gov.uk/taxation/CT/5"><Value>kept</Value></IRenvelope></gt:Body></gt:GovTalkMessage>';
    const masked = maskGatewayPassword(xml);
    expect(masked).not.toContain("secret");
    expect(masked).toContain(`<gt:Value>${PASSWORD_MASK}</gt:Value>`);
    expect(masked).toContain("<Value>kept</Value>");
    expect(computeIRmark(masked)).toEqual(computeIRmark(xml));
  });

  it("masks a password written as CDATA or with character references", () => {
    const { xml, irmark } = buildCt600SubmitMessage(nilReturnInput({ password: "plain" }));
    for (const written of ["<![CDATA[a<b&c]]>", "&#x41;&#66;&amp;"]) {
      const variant = xml.replace("<Value>plain</Value>", `<Value>${written}</Value>`);
      const masked = maskGatewayPassword(variant);
      expect(masked).not.toContain(written);
      expect(readGovTalkEnvelope(masked).sender?.authentications[0]?.value).toBe(PASSWORD_MASK);
      expect(computeIRmark(masked)).toEqual(irmark);
    }
  });

  it("leaves messages without a password as they are", () => {
    const poll = buildCt600PollMessage({ correlationId: "AB", gatewayTest: true });
    expect(maskGatewayPassword(poll)).toBe(poll);
  });
});
