import { describe, expect, it } from "vitest";
import { readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkInputError } from "../errors.ts";
import { computeIRmark, govTalkBody, irmarkElements } from "../irmark/compute.ts";
import { nilReturnInput } from "../test-support/ct600-input.ts";
import { maskGatewayPassword, PASSWORD_MASK } from "../secrets/mask-gateway-password.ts";
import { elementAt, textAt } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";
import { validateCt600Body } from "../xsd/validate-ct600.ts";
import { buildCt600SubmitMessage } from "./submit-message.ts";

function returnText(xml: string, path: string[]): string | undefined {
  const envelope = govTalkBody(parseXml(xml)).getElementsByTagNameNS(NS.ct, "IRenvelope")[0];
  return envelope ? textAt(envelope, path, NS.ct) : undefined;
}

describe("buildCt600SubmitMessage", () => {
  it("builds a schema-valid dormant nil return with the envelope the authority expects", async () => {
    const { xml, irmark } = buildCt600SubmitMessage(nilReturnInput());
    const envelope = readGovTalkEnvelope(xml);
    expect(envelope).toMatchObject({
      envelopeVersion: "2.0",
      class: "HMRC-CT-CT600",
      qualifier: "request",
      function: "submit",
      correlationId: "",
      transformation: "XML",
      gatewayTest: true,
      keys: [{ type: "UTR", value: "8596148860" }],
      targetOrganisations: ["HMRC"],
      channel: { uri: "1234", product: "Dormant Filing Platform", version: "1.0.0" },
      sender: { senderId: "GGUSER01", authentications: [{ method: "clear", role: "Principal", value: "s3cret-P@ss&<word>" }] },
    });
    expect(returnText(xml, ["IRheader", "IRmark"])).toBe(irmark.base64);
    expect(returnText(xml, ["IRheader", "PeriodEnd"])).toBe("2025-03-31");
    expect(returnText(xml, ["IRheader", "Manifest", "Contains", "Reference", "SchemaVersion"])).toBe("2025-v1.994");
    expect(returnText(xml, ["CompanyTaxReturn", "CompanyInformation", "Reference"])).toBe("8596148860");
    expect(returnText(xml, ["CompanyTaxReturn", "ReturnInfoSummary", "Accounts", "NoAccountsReason"])).toBe("Company dormant");
    expect(returnText(xml, ["CompanyTaxReturn", "ReturnInfoSummary", "Computations", "NoComputationsReason"])).toBe("Company dormant");
    expect(returnText(xml, ["CompanyTaxReturn", "CalculationOfTaxOutstandingOrOverpaid", "TaxPayable"])).toBe("0.00");
    expect(returnText(xml, ["CompanyTaxReturn", "Declaration", "AcceptDeclaration"])).toBe("yes");
    expect(await validateCt600Body(xml)).toEqual({ valid: true, errors: [] });
  });

  it("carries the IRmark that recomputing from the message gives", () => {
    const { xml, irmark } = buildCt600SubmitMessage(nilReturnInput({ gatewayTest: false }));
    expect(computeIRmark(xml)).toEqual(irmark);
    expect(irmark.base64).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(irmarkElements(govTalkBody(parseXml(xml)))).toHaveLength(1);
    expect(readGovTalkEnvelope(xml).gatewayTest).toBe(false);
  });

  it.each([
    ["escaped characters", "Smith & Sons <UK> 'Trading' \"Ltd\"", "Smith & Sons <UK> 'Trading' \"Ltd\""],
    ["non-ASCII letters", "Zoë Ångström Straße Ltd", "Zoe Angstrom Strasse Ltd"],
    ["characters the schema refuses", "Number #1 £$€~ Ltd", "Number 1 Ltd"],
    ["typographic quotes and dashes", "O’Brien – “Holdings” Ltd", 'O\'Brien - "Holdings" Ltd'],
    ["a name longer than 56 characters", `${"A".repeat(50)} Holdings Limited`, `${"A".repeat(50)} Holdi`],
  ])("writes a schema-valid return for %s", async (_case, companyName, expected) => {
    const { xml } = buildCt600SubmitMessage(nilReturnInput({ companyName, declarantName: "Zoë O’Neil-Ørsted" }));
    expect(returnText(xml, ["CompanyTaxReturn", "CompanyInformation", "CompanyName"])).toBe(expected);
    expect(returnText(xml, ["CompanyTaxReturn", "Declaration", "Name"])).toBe("Zoe O'Neil-Orsted");
    expect(computeIRmark(xml).base64).toBe(returnText(xml, ["IRheader", "IRmark"]));
    expect(await validateCt600Body(xml)).toEqual({ valid: true, errors: [] });
  });

  it("accepts a period of exactly 12 months and a Scottish company number", async () => {
    const { xml } = buildCt600SubmitMessage(
      nilReturnInput({ periodStart: "2024-03-01", periodEnd: "2025-02-28", companyNumber: "sc000001" }),
    );
    expect(returnText(xml, ["CompanyTaxReturn", "CompanyInformation", "RegistrationNumber"])).toBe("SC000001");
    expect(await validateCt600Body(xml)).toEqual({ valid: true, errors: [] });
  });

  it.each([
    [{ utr: "123" }, "utr"],
    [{ companyName: "£" }, "companyName"],
    [{ periodStart: "2025-02-29" }, "periodStart"],
    [{ periodStart: "2024-04-01", periodEnd: "2025-04-01" }, "periodEnd"],
    [{ periodStart: "2024-04-01", periodEnd: "2024-03-31" }, "periodEnd"],
    [{ periodStart: "2015-03-31", periodEnd: "2016-03-30" }, "periodStart"],
    [{ vendorId: "12345" }, "vendorId"],
    [{ companyNumber: "123456789" }, "companyNumber"],
  ])("refuses invalid input %o", (overrides, path) => {
    const attempt = () => buildCt600SubmitMessage(nilReturnInput(overrides));
    expect(attempt).toThrow(GovTalkInputError);
    try {
      attempt();
    } catch (error) {
      expect((error as GovTalkInputError).issues.map((issue) => issue.path)).toContain(path);
    }
  });

  it("carries the sender's TransactionID when given (what a DATA_REQUEST lists beside the CorrelationID), and no other byte changes the IRmark", () => {
    const plain = buildCt600SubmitMessage(nilReturnInput());
    const withId = buildCt600SubmitMessage(nilReturnInput(), { transactionId: "0123456789ABCDEF0123456789ABCDEF" });
    expect(readGovTalkEnvelope(plain.xml).transactionId).toBeUndefined();
    expect(readGovTalkEnvelope(withId.xml).transactionId).toBe("0123456789ABCDEF0123456789ABCDEF");
    // The Header is outside the IRmark: the same return gives the same IRmark.
    expect(withId.irmark).toEqual(plain.irmark);
    expect(() => buildCt600SubmitMessage(nilReturnInput(), { transactionId: "not-hex" })).toThrow(GovTalkInputError);
    expect(() => buildCt600SubmitMessage(nilReturnInput(), { transactionId: "0".repeat(33) })).toThrow(GovTalkInputError);
  });

  it("never puts the password in an input error", () => {
    const password = "Tr0ub4dor&3-very-secret";
    try {
      buildCt600SubmitMessage(nilReturnInput({ password, utr: "x" }));
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(password);
      expect(JSON.stringify(error)).not.toContain(password);
    }
  });

  it("puts the password only in Header/SenderDetails", () => {
    const password = "Unique-Pa55word-Value";
    const { xml } = buildCt600SubmitMessage(nilReturnInput({ password }));
    expect(xml.split(password)).toHaveLength(2);
    const root = parseXml(xml).documentElement!;
    const value = elementAt(root, ["Header", "SenderDetails", "IDAuthentication", "Authentication", "Value"], NS.envelope);
    expect(value?.textContent).toBe(password);
  });

  it("gives the message with the password masked, every other byte the same", () => {
    const password = "P@ss<&>'\"word-1234";
    const { xml, maskedXml, irmark } = buildCt600SubmitMessage(nilReturnInput({ password }));
    expect(maskedXml).toBe(maskGatewayPassword(xml));
    expect(maskedXml).not.toContain("word-1234");
    expect(readGovTalkEnvelope(maskedXml).sender?.authentications).toEqual([{ method: "clear", role: "Principal", value: PASSWORD_MASK }]);
    expect(computeIRmark(maskedXml)).toEqual(irmark);
    expect(returnText(maskedXml, ["IRheader", "IRmark"])).toBe(irmark.base64);
    expect(xml).not.toContain("IRMARK-TO-BE-COMPUTED");
  });

  it("is the message serialising the finished tree gives (one serialisation, IRmark written over a placeholder)", () => {
    const { xml, irmark } = buildCt600SubmitMessage(nilReturnInput());
    // Reading the message and writing it again with the same builder changes nothing.
    expect(xml.match(/<IRmark Type="generic">([^<]*)<\/IRmark>/)?.[1]).toBe(irmark.base64);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope">\n  <EnvelopeVersion>2.0</EnvelopeVersion>',
      ),
    ).toBe(true);
    expect(xml).toContain("<Value>s3cret-P@ss&amp;&lt;word&gt;</Value>");
  });
});
