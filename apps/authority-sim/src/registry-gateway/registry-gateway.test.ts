import {
  isDuplicateSubmissionError,
  parseAccountsSubmissionResponse,
  parseSubmissionStatusResponse,
  type RegistryErrorAnswer,
  type RegistryStatusAnswer,
  type RegistrySubmissionStatus,
} from "@dormant/govtalk";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetSimContext } from "../context.ts";
import type { SimServer } from "../server.ts";
import { accountsSubmission, dormantAccountsIxbrl, SIM_PRESENTER, statusRequest } from "../test-support/registry-messages.ts";
import { control, postXml, startTestSim } from "../testing/test-sim.ts";

let sim: SimServer;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(() => sim.close());
beforeEach(() => resetSimContext(sim.context));

async function submit(xml: string) {
  const answer = await postXml(sim.urls.registryGateway, xml);
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^text\/xml/);
  return parseAccountsSubmissionResponse(answer.text);
}

async function submitError(xml: string): Promise<RegistryErrorAnswer> {
  const answer = await submit(xml);
  if (answer.type !== "error") throw new Error("expected an error answer");
  return answer;
}

async function submitAccepted(companyNumber: string, overrides = {}): Promise<string> {
  const message = accountsSubmission(companyNumber, overrides);
  const answer = await submit(message.xml);
  expect(answer).toEqual({ type: "acknowledgement", transactionId: message.transactionId });
  return message.submissionNumber;
}

async function status(
  by: { submissionNumber: string } | { companyNumber: string },
  presenter = SIM_PRESENTER,
): Promise<RegistryStatusAnswer | RegistryErrorAnswer> {
  const answer = await postXml(sim.urls.registryGateway, statusRequest(by, presenter));
  expect(answer.status).toBe(200);
  return parseSubmissionStatusResponse(answer.text);
}

async function statusOf(submissionNumber: string): Promise<RegistrySubmissionStatus> {
  const answer = await status({ submissionNumber });
  if (answer.type !== "status" || !answer.statuses[0]) throw new Error(`no status: ${JSON.stringify(answer)}`);
  return answer.statuses[0];
}

function finalStatus(submissionNumber: string): Promise<RegistrySubmissionStatus> {
  return waitFor(
    async () => {
      const current = await statusOf(submissionNumber);
      return current.statusCode === "PENDING" ? undefined : current;
    },
    { timeoutMs: 5000, intervalMs: 25, what: "a final status" },
  );
}

describe("registry XML gateway: accounts submission", () => {
  it("acknowledges dormant accounts (iXBRL from @dormant/documents), then PENDING, then ACCEPT", async () => {
    sim.context.timing.update({ outcomeDelayMs: 1000 });
    const submissionNumber = await submitAccepted("00000001");
    expect(await statusOf(submissionNumber)).toMatchObject({
      submissionNumber,
      statusCode: "PENDING",
      outcome: "pending",
      companyNumber: "00000001",
    });
    expect(await finalStatus(submissionNumber)).toMatchObject({ statusCode: "ACCEPT", outcome: "accepted", rejections: [] });
  });

  it.each([
    ["00000002", "211"],
    ["00000003", "262"],
    ["SC000002", "304"],
    ["NI000002", "601"],
    ["99999999", "310"],
  ])("%s: REJECT with reject code %s", async (company, code) => {
    const final = await finalStatus(await submitAccepted(company));
    expect(final).toMatchObject({ statusCode: "REJECT", outcome: "rejected", companyNumber: company });
    expect(final.rejections.map((r) => r.rejectCode)).toEqual([code]);
    expect(final.rejections[0]?.description).not.toBe("");
  });

  it.each(["SC000001", "NI000001", "12345678"])("%s: ACCEPT", async (company) => {
    expect((await finalStatus(await submitAccepted(company))).statusCode).toBe("ACCEPT");
  });

  it("00000005: ACCEPT at the first status request", async () => {
    sim.context.timing.update({ outcomeDelayMs: 60_000 });
    expect((await statusOf(await submitAccepted("00000005"))).statusCode).toBe("ACCEPT");
  });

  it("00000006: PARKED (still pending for the client), then ACCEPT", async () => {
    sim.context.timing.update({ outcomeDelayMs: 600 });
    const submissionNumber = await submitAccepted("00000006");
    const parked = await waitFor(
      async () => {
        const current = await statusOf(submissionNumber);
        return current.statusCode === "PARKED" ? current : undefined;
      },
      { intervalMs: 20, what: "PARKED" },
    );
    expect(parked.outcome).toBe("pending");
    await waitFor(async () => (await statusOf(submissionNumber)).statusCode === "ACCEPT");
  });

  it("INTERNAL_FAILURE for a company overridden to the internal-failure scenario", async () => {
    await control(sim, "PUT", "/outcomes/12345678", { scenario: "internal-failure" });
    expect(await finalStatus(await submitAccepted("12345678"))).toMatchObject({ statusCode: "INTERNAL_FAILURE", outcome: "error" });
  });

  it("rejects the documented refused company authentication code (000000) and a code in lower case", async () => {
    for (const companyAuthCode of ["000000", "a1b2c3"]) {
      const final = await finalStatus(await submitAccepted("00000001", { companyAuthCode }));
      expect(final.rejections).toEqual([{ rejectCode: "601", description: "Company authentication code invalid", instanceNumber: "1" }]);
    }
  });

  it("takes either method the envelope schema names for hashed credentials: clear and CHMD5, each with MD5 values", async () => {
    await submitAccepted("00000001", { presenter: { ...SIM_PRESENTER, authMethod: "clear" } });
    await submitAccepted("00000001", { presenter: { ...SIM_PRESENTER, authMethod: "CHMD5" } });
    for (const authMethod of ["clear", "CHMD5"] as const) {
      expect((await status({ companyNumber: "00000001" }, { ...SIM_PRESENTER, authMethod })).type).toBe("status");
    }
  });

  it("wrong presenter credentials, plain-text values or another method: 502 Authorisation Failure, an authentication error", async () => {
    const wrongCode = accountsSubmission("00000001", { presenter: { ...SIM_PRESENTER, presenterAuthCode: "WRONGCODE" } }).xml;
    const wrongId = accountsSubmission("00000001", { presenter: { ...SIM_PRESENTER, presenterId: "12345678901" } }).xml;
    const good = accountsSubmission("00000001").xml;
    const signedMethod = good.replace("<Method>clear</Method>", "<Method>W3Csigned</Method>");
    const plainValues = good
      .replace(/<SenderID>[0-9a-f]{32}<\/SenderID>/, `<SenderID>${SIM_PRESENTER.presenterId}</SenderID>`)
      .replace(/<Value>[0-9a-f]{32}<\/Value>/, `<Value>${SIM_PRESENTER.presenterAuthCode}</Value>`);
    expect(signedMethod).not.toBe(good);
    expect(plainValues).not.toBe(good);
    for (const xml of [wrongCode, wrongId, signedMethod, plainValues]) {
      const error = await submitError(xml);
      expect(error.errors[0]).toMatchObject({ number: 502, type: "fatal", text: "Authorisation Failure" });
      expect(error.classification).toMatchObject({ kind: "authentication", retryable: false });
    }
    const badStatus = await status({ companyNumber: "00000001" }, { ...SIM_PRESENTER, presenterAuthCode: "WRONGCODE" });
    expect(badStatus.type === "error" && badStatus.errors[0]?.number).toBe(502);
  });

  it("a submission number is unique per presenter forever: reuse is refused with the real 9999 Invalid Envelope Number, the first one stands", async () => {
    const first = accountsSubmission("00000001");
    expect((await submit(first.xml)).type).toBe("acknowledgement");
    const again = await submitError(first.xml);
    expect(again.errors[0]).toMatchObject({ number: 9999, type: "fatal", text: "Invalid Envelope Number" });
    // A submitter whose first answer was lost resubmits, recognises the duplicate and polls.
    expect(isDuplicateSubmissionError(again.errors)).toBe(true);
    expect(again.classification).toMatchObject({ kind: "business", retryable: false });
    const other = accountsSubmission("00000002", { submissionNumber: first.submissionNumber });
    expect((await submitError(other.xml)).errors[0]).toMatchObject({ number: 9999, text: "Invalid Envelope Number" });
    expect((await statusOf(first.submissionNumber)).companyNumber).toBe("00000001");
  });

  it("refuses a Filename over 32 characters and a FormSubmission without its xsi:schemaLocation (100, 'Invalid formatted XML Document')", async () => {
    const xml = accountsSubmission("00000001").xml;
    const longName = xml.replace("<Filename>accounts.html</Filename>", "<Filename>00000001-accounts-2026-03-31.xhtml</Filename>");
    const noSchemaLocation = xml.replace(/ xsi:schemaLocation="[^"]*"/, "");
    const otherSchema = xml.replace("FormSubmission-v2-11.xsd", "FormSubmission-v2-5.xsd");
    for (const [bad, element] of [
      [longName, "Filename"],
      [noSchemaLocation, "FormSubmission"],
      [otherSchema, "FormSubmission"],
    ] as const) {
      expect(bad).not.toBe(xml);
      const error = await submitError(bad);
      expect(error.errors[0]).toMatchObject({
        number: 100,
        type: "fatal",
        text: expect.stringContaining(`Invalid formatted XML Document - Please check element '${element}'`),
      });
      expect(isDuplicateSubmissionError(error.errors)).toBe(false);
    }
    const name32 = xml.replace("<Filename>accounts.html</Filename>", "<Filename>00000001-20260331-dormant-ac.xht</Filename>");
    expect((await submit(name32)).type).toBe("acknowledgement");
  });

  it("refuses a GatewayTest that selects no test mode with the real gateway's text; 0 and 1 are taken", async () => {
    const xml = accountsSubmission("00000001").xml;
    for (const mode of ["2", "true", "yes"]) {
      const bad = xml.replace("<GatewayTest>1</GatewayTest>", `<GatewayTest>${mode}</GatewayTest>`);
      expect(bad).not.toBe(xml);
      const error = await submitError(bad);
      expect(error.errors[0]).toMatchObject({
        number: 100,
        text: "Invalid testmode selected. You must use a test efiling presenter account and set the test mode.",
        location: "Header/MessageDetails/GatewayTest",
      });
    }
    expect((await submit(accountsSubmission("00000001", { gatewayTest: false }).xml)).type).toBe("acknowledgement");
  });

  it("checks the form header: CompanyType, authentication code and submission number formats (100)", async () => {
    const xml = accountsSubmission("00000001").xml;
    const cases = [
      xml.replace("<CompanyType>EW</CompanyType>", "<CompanyType>SC</CompanyType>"),
      xml.replace(
        /<CompanyAuthenticationCode>\w+<\/CompanyAuthenticationCode>/,
        "<CompanyAuthenticationCode>A1B2C</CompanyAuthenticationCode>",
      ),
      xml.replace(/<SubmissionNumber>(\w+)<\/SubmissionNumber>/, "<SubmissionNumber>$1X</SubmissionNumber>"),
      xml.replace("<Language>EN</Language>", "<Language>FR</Language>"),
      xml.replace("<Category>ACCOUNTS</Category>", "<Category>OTHER</Category>"),
    ];
    for (const bad of cases) expect((await submitError(bad)).errors[0]?.number).toBe(100);
  });

  it("checks the attached accounts: base64 (100), then well-formed XHTML with inline XBRL for this company (9999)", async () => {
    const xml = accountsSubmission("00000001").xml;
    const withData = (data: string) => xml.replace(/<Data>[^<]*<\/Data>/, `<Data>${data}</Data>`);
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    expect((await submitError(withData("not base64!"))).errors[0]?.number).toBe(100);
    const problems = [
      base64("plain text accounts"),
      base64('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>no inline XBRL</p></body></html>'),
      base64('<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"></html>'),
      base64(dormantAccountsIxbrl("00000001").replace("</body>", "")),
      base64(dormantAccountsIxbrl("00000002")),
    ];
    for (const data of problems) {
      const error = await submitError(withData(data));
      expect(error.errors[0]).toMatchObject({ number: 9999, type: "fatal" });
      expect(error.classification).toMatchObject({ kind: "business", retryable: false });
      expect(isDuplicateSubmissionError(error.errors)).toBe(false);
    }
    const unclosed = await submitError(withData(base64(dormantAccountsIxbrl("00000001").replace("</body>", ""))));
    expect(unclosed.errors[0]?.text).toMatch(/^The accounts document is not well-formed XHTML \(malformed XML: .+\)\.$/);
  });

  it("refuses malformed XML, a DOCTYPE, another envelope version (100); 415/413 at the HTTP level", async () => {
    const xml = accountsSubmission("00000001").xml;
    const doctype = xml.replace('<?xml version="1.0" encoding="UTF-8"?>', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>');
    for (const bad of [xml.slice(0, -30), doctype, xml.replace("<EnvelopeVersion>1.0", "<EnvelopeVersion>2.0"), ""]) {
      const error = await submitError(bad);
      expect(error.errors[0]).toMatchObject({ number: 100, type: "fatal", text: expect.stringMatching(/^Invalid request: /) });
      expect(error.classification).toMatchObject({ kind: "protocol", retryable: false });
    }
    const json = await fetch(sim.urls.registryGateway, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(415);
  });

  it("never echoes the company authentication code or presenter credentials", async () => {
    const message = accountsSubmission("00000001", { companyAuthCode: "Z9Y8X7" });
    const answers = [await postXml(sim.urls.registryGateway, message.xml), await postXml(sim.urls.registryGateway, message.xml)];
    const log = await (await fetch(`${sim.urls.control}/received`)).text();
    for (const text of [...answers.map((a) => a.text), log]) {
      expect(text).not.toContain("Z9Y8X7");
      expect(text).not.toContain(SIM_PRESENTER.presenterAuthCode);
    }
  });
});

describe("registry XML gateway: GetSubmissionStatus", () => {
  it("by company number: every submission of that company", async () => {
    const first = await submitAccepted("SC000001");
    const second = await submitAccepted("SC000001");
    await submitAccepted("00000001");
    const answer = await status({ companyNumber: "SC000001" });
    if (answer.type !== "status") throw new Error("expected statuses");
    expect(answer.statuses.map((s) => s.submissionNumber).sort()).toEqual([first, second].sort());
  });

  it("an unknown submission number gives an empty SubmissionStatus", async () => {
    const answer = await status({ submissionNumber: "ZZZZZZ" });
    expect(answer).toMatchObject({ type: "status", statuses: [] });
  });

  it("00000004: acknowledged, then status requests are never answered", async () => {
    const submissionNumber = await submitAccepted("00000004");
    const request = postXml(sim.urls.registryGateway, statusRequest({ submissionNumber }), { signal: AbortSignal.timeout(250) });
    await expect(request).rejects.toThrow(/timeout|abort/i);
    await waitFor(() => sim.context.hanging.count === 0, { what: "the hung request to be released" });
    const log = sim.context.received.list({ target: "registry", company: "00000004" });
    expect(log.map((e) => `${e.kind}:${e.answer}`)).toEqual(["submit:acknowledgement", "status:no-answer"]);
  });

  it("the received log lists each submission once with its submission number", async () => {
    const submissionNumber = await submitAccepted("00000001");
    await finalStatus(submissionNumber);
    const body = (await (await fetch(`${sim.urls.control}/received?target=registry&kind=submit&company=00000001`)).json()) as {
      items: { submissionNumber: string; answer: string }[];
    };
    expect(body.items).toEqual([expect.objectContaining({ submissionNumber, answer: "acknowledgement" })]);
  });
});
