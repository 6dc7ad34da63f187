import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GovTalkInputError } from "../errors.ts";
import { accountsInput, presenter } from "../test-support/registry-input.ts";
import { FORM_SUBMISSION_SCHEMA_LOCATION } from "./constants.ts";
import { buildAccountsSubmission } from "./form-submission.ts";
import { parseRegistryRequest } from "./parse-request.ts";

const md5 = (value: string) => createHash("md5").update(value).digest("hex");

describe("buildAccountsSubmission", () => {
  it("builds the Accounts request with MD5 presenter credentials (Method clear) and the iXBRL in Document/Data", () => {
    const input = accountsInput({ contactName: "Ada Lovelace", contactNumber: "01234 567890" });
    const { xml, submissionNumber, transactionId } = buildAccountsSubmission(input);
    expect({ submissionNumber, transactionId }).toEqual({ submissionNumber: "00001A", transactionId: "0A1B2C3D" });
    const request = parseRegistryRequest(xml);
    expect(request).toMatchObject({
      kind: "FormSubmission",
      transactionId: "0A1B2C3D",
      gatewayTest: true,
      senderId: md5(presenter.presenterId),
      authenticationMethod: "clear",
      authenticationValue: md5(presenter.presenterAuthCode),
      schemaLocation: FORM_SUBMISSION_SCHEMA_LOCATION,
      gatewayTestText: "1",
      envelope: { envelopeVersion: "1.0", class: "Accounts", qualifier: "request", sender: { emailAddress: "filings@example.com" } },
      form: {
        companyNumber: "00000001",
        companyType: "EW",
        companyName: "DORMANT EXAMPLE LIMITED",
        companyAuthCode: "A1B2C3",
        packageReference: "0012",
        language: "EN",
        formIdentifier: "Accounts",
        submissionNumber: "00001A",
        contactName: "Ada Lovelace",
        contactNumber: "01234 567890",
        dateSigned: "2025-06-30",
        document: { date: "2025-06-30", filename: "accounts.html", contentType: "application/xml", category: "ACCOUNTS" },
      },
    });
    if (request.kind !== "FormSubmission") return;
    expect(request.form.document.bytes?.toString("utf8")).toBe((input.document as { content: string }).content);
    expect(request.senderId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("carries xsi:schemaLocation to FormSubmission-v2-11.xsd, as the registry's examples do", () => {
    const { xml } = buildAccountsSubmission(accountsInput());
    expect(FORM_SUBMISSION_SCHEMA_LOCATION).toBe(
      "http://xmlgw.companieshouse.gov.uk/Header http://xmlgw.companieshouse.gov.uk/v1-0/schema/forms/FormSubmission-v2-11.xsd",
    );
    expect(xml).toMatch(
      /<FormSubmission xmlns="http:\/\/xmlgw\.companieshouse\.gov\.uk\/Header" xmlns:xsi="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance" xsi:schemaLocation="[^"]+FormSubmission-v2-11\.xsd">/,
    );
  });

  it("sends the method the presenter configures: CHMD5 with the same MD5 values", () => {
    const request = parseRegistryRequest(buildAccountsSubmission(accountsInput({ presenter: { ...presenter, authMethod: "CHMD5" } })).xml);
    expect(request).toMatchObject({
      authenticationMethod: "CHMD5",
      senderId: md5(presenter.presenterId),
      authenticationValue: md5(presenter.presenterAuthCode),
    });
  });

  it("takes a Filename of up to 32 characters (FormSubmission-v2-11.xsd) and refuses a longer one", () => {
    const name32 = "00000001-20260331-dormant-ac.xht";
    expect(name32).toHaveLength(32);
    const request = parseRegistryRequest(
      buildAccountsSubmission(accountsInput({ document: { content: "<html/>", filename: name32 } })).xml,
    );
    expect(request).toMatchObject({ form: { document: { filename: name32 } } });
    try {
      buildAccountsSubmission(accountsInput({ document: { content: "<html/>", filename: "00000001-accounts-2026-03-31.xhtml" } }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GovTalkInputError);
      expect((error as GovTalkInputError).issues.map((issue) => issue.path)).toContain("document.filename");
    }
  });

  it("never writes the presenter ID or authentication code in clear", () => {
    const { xml } = buildAccountsSubmission(
      accountsInput({ presenter: { presenterId: "PRESENTER-ID-XYZ", presenterAuthCode: "AUTHCODE-XYZ" } }),
    );
    expect(xml).not.toContain("PRESENTER-ID-XYZ");
    expect(xml).not.toContain("AUTHCODE-XYZ");
  });

  it("encodes binary documents as they are", () => {
    const bytes = new Uint8Array([0, 255, 1, 254, 60, 38]);
    const request = parseRegistryRequest(
      buildAccountsSubmission(accountsInput({ document: { content: bytes, filename: "a.html", date: "2025-07-01" } })).xml,
    );
    if (request.kind !== "FormSubmission") throw new Error("expected a FormSubmission");
    expect([...(request.form.document.bytes ?? [])]).toEqual([...bytes]);
    expect(request.form.document.date).toBe("2025-07-01");
  });

  it("escapes company names", () => {
    const request = parseRegistryRequest(buildAccountsSubmission(accountsInput({ companyName: "SMITH & SONS <UK> 'O'NEIL' LTD" })).xml);
    expect(request).toMatchObject({ form: { companyName: "SMITH & SONS <UK> 'O'NEIL' LTD" } });
  });

  it.each([
    [{ submissionNumber: "12345" }, "submissionNumber"],
    [{ submissionNumber: "abc123" }, "submissionNumber"],
    [{ companyAuthCode: "ABC12" }, "companyAuthCode"],
    [{ companyNumber: "1234" }, "companyNumber"],
    [{ transactionId: "xyz" }, "transactionId"],
    [{ dateSigned: "2025-13-01" }, "dateSigned"],
    [{ companyType: "XX" as never }, "companyType"],
    [{ presenter: { ...presenter, authMethod: "W3Csigned" as never } }, "presenter.authMethod"],
  ])("refuses invalid input %o", (overrides, path) => {
    try {
      buildAccountsSubmission(accountsInput(overrides));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GovTalkInputError);
      expect((error as GovTalkInputError).issues.map((issue) => issue.path)).toContain(path);
    }
  });

  it("does not echo the company authentication code in input errors", () => {
    try {
      buildAccountsSubmission(accountsInput({ companyAuthCode: "SECRET9" }));
      expect.unreachable();
    } catch (error) {
      expect(JSON.stringify(error) + String(error)).not.toContain("SECRET9");
    }
  });
});
