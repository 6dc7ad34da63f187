import type { AddressInfo } from "node:net";
import { buildCt600PollMessage, parseCt600Response, type Ct600ErrorAnswer } from "@dormant/govtalk";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimServer } from "../server.ts";
import { alteredAndResigned, nilReturn } from "../test-support/tax-messages.ts";
import { postXml, startTestSim } from "../testing/test-sim.ts";

let sim: SimServer;
beforeAll(async () => {
  sim = await startTestSim({ maxBodyBytes: 64 * 1024 });
});
afterAll(() => sim.close());

async function submit(xml: string) {
  const answer = await postXml(sim.urls.taxSubmission, xml);
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^text\/xml/);
  return parseCt600Response(answer.text);
}

async function submitError(xml: string): Promise<Ct600ErrorAnswer> {
  const answer = await submit(xml);
  if (answer.type !== "error") throw new Error(`expected an error answer, got ${answer.type}`);
  return answer;
}

/**
 * A submission the Transaction Engine acknowledges and its back end then refuses: the error
 * answered to a poll once the outcome is ready (with the submission's CorrelationID).
 */
async function refusedAtPoll(xml: string): Promise<Ct600ErrorAnswer> {
  const ack = await submit(xml);
  if (ack.type !== "acknowledgement") throw new Error(`expected an acknowledgement, got ${JSON.stringify(ack)}`);
  const answer = await waitFor(
    async () => {
      const polled = parseCt600Response(
        (await postXml(sim.urls.taxPoll, buildCt600PollMessage({ correlationId: ack.correlationId, gatewayTest: true }))).text,
      );
      return polled.type === "acknowledgement" ? undefined : polled;
    },
    { timeoutMs: 5000, intervalMs: 25, what: "the answer to a poll" },
  );
  if (answer.type !== "error") throw new Error(`expected an error answer, got ${answer.type}`);
  expect(answer.correlationId).toBe(ack.correlationId);
  return answer;
}

describe("tax transaction engine: submission", () => {
  it("acknowledges a valid CT600 with a new 32-hex CorrelationID, the poll endpoint and the poll interval", async () => {
    const first = await submit(nilReturn().xml);
    const second = await submit(nilReturn().xml);
    expect(first).toMatchObject({ type: "acknowledgement", pollIntervalSeconds: 1, responseEndPoint: sim.urls.taxPoll });
    if (first.type !== "acknowledgement" || second.type !== "acknowledgement") throw new Error("not acknowledged");
    expect(first.correlationId).toMatch(/^[0-9A-F]{32}$/);
    expect(second.correlationId).not.toBe(first.correlationId);
  });

  it("answers text/xml in UTF-8 with its length and no ETag", async () => {
    const response = await fetch(sim.urls.taxSubmission, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: nilReturn().xml,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/xml; charset=utf-8");
    expect(response.headers.get("content-length")).toBe(String(bytes.length));
    expect(response.headers.get("etag")).toBeNull();
    expect(parseCt600Response(bytes.toString("utf8")).type).toBe("acknowledgement");
  });

  it("accepts the same message on the poll endpoint (the engine routes on the message)", async () => {
    const answer = parseCt600Response((await postXml(sim.urls.taxPoll, nilReturn().xml)).text);
    expect(answer.type).toBe("acknowledgement");
  });

  it("refuses a submission that carries a CorrelationID: 1020", async () => {
    const error = await submitError(nilReturn().xml.replace("<CorrelationID/>", "<CorrelationID>0123456789ABCDEF</CorrelationID>"));
    expect(error.errors[0]?.number).toBe(1020);
    expect(error.classification.retryable).toBe(false);
  });

  it.each([
    ["Government Gateway ID", { senderId: "REFUSED" }],
    ["password", { password: "REFUSED" }],
  ])("refuses the documented refused %s: 1046, an authentication failure", async (_what, overrides) => {
    const error = await submitError(nilReturn(overrides).xml);
    expect(error.errors[0]).toMatchObject({ number: 1046, type: "fatal" });
    expect(error.classification).toMatchObject({ kind: "authentication", retryable: false });
  });

  it("refuses MD5 authentication, withdrawn for CT: 1047", async () => {
    const error = await submitError(nilReturn().xml.replace("<Method>clear</Method>", "<Method>MD5</Method>"));
    expect(error.errors[0]?.number).toBe(1047);
    expect(error.classification.kind).toBe("authentication");
  });

  it("refuses a message without credentials: 1046", async () => {
    const xml = nilReturn().xml.replace(/<SenderDetails>[\s\S]*<\/SenderDetails>/, "");
    expect((await submitError(xml)).errors[0]?.number).toBe(1046);
  });

  it("acknowledges a return that is not valid against the CT schema, then answers the poll 1001 naming the element", async () => {
    const error = await refusedAtPoll(alteredAndResigned(nilReturn().xml, "<Total>0.00</Total>", "<Total>nothing</Total>"));
    expect(error.errors[0]?.number).toBe(1001);
    expect(error.errors[0]?.text).toContain("Total");
    expect(error.classification).toMatchObject({ kind: "schema", retryable: false });
  });

  it("acknowledges a wrong IRmark, then answers the poll 2021", async () => {
    const { xml, irmark } = nilReturn();
    const wrong = Buffer.from("a different digest..").toString("base64");
    const error = await refusedAtPoll(xml.replace(irmark.base64, wrong));
    expect(error.errors[0]).toMatchObject({ number: 2021, raisedBy: "ChRIS" });
  });

  it("answers 2021 at the poll for a return whose content changed after its IRmark was computed", async () => {
    const error = await refusedAtPoll(nilReturn().xml.replace("Lovelace Engines Limited", "Babbage Engines Limited"));
    expect(error.errors[0]?.number).toBe(2021);
  });

  it("answers 2022 at the poll for a missing or empty IRmark", async () => {
    const { xml, irmark } = nilReturn();
    expect((await refusedAtPoll(xml.replace(/\s*<IRmark Type="generic">[^<]*<\/IRmark>/, ""))).errors[0]?.number).toBe(2022);
    expect((await refusedAtPoll(xml.replace(irmark.base64, ""))).errors[0]?.number).toBe(2022);
  });

  it("checks the schema before the IRmark: an invalid return with a wrong IRmark answers 1001", async () => {
    const error = await refusedAtPoll(nilReturn().xml.replace("<Total>0.00</Total>", "<Total>nothing</Total>"));
    expect(error.errors.map((e) => e.number)).toEqual([1001]);
  });

  it("refuses malformed XML, a DOCTYPE and an empty body at once: 1001 (the engine cannot route them)", async () => {
    const { xml } = nilReturn();
    const doctype = xml.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
    );
    for (const bad of [xml.slice(0, -20), "<GovTalkMessage>", doctype, ""]) {
      const error = await submitError(bad);
      expect(error.errors[0]?.number).toBe(1001);
    }
  });

  it("refuses another class or envelope version: 1001", async () => {
    const { xml } = nilReturn();
    expect((await submitError(xml.replace("HMRC-CT-CT600", "HMRC-VAT-DEC"))).errors[0]?.number).toBe(1001);
    expect((await submitError(xml.replace("<EnvelopeVersion>2.0", "<EnvelopeVersion>1.0"))).errors[0]?.number).toBe(1001);
  });

  it("answers 415 to a body that is not XML and 413 to one over the size limit", async () => {
    const json = await fetch(sim.urls.taxSubmission, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(415);
    const huge = await postXml(sim.urls.taxSubmission, `<x>${"a".repeat(70 * 1024)}</x>`);
    expect(huge.status).toBe(413);
  });

  it("writes SIM_PUBLIC_URL into ResponseEndPoint when configured", async () => {
    const behindProxy = await startTestSim({ publicUrl: "http://authority-sim.internal:4100" });
    try {
      const { port } = behindProxy.server.address() as AddressInfo;
      const answer = parseCt600Response((await postXml(`http://127.0.0.1:${port}/tax/submission`, nilReturn().xml)).text);
      expect(answer).toMatchObject({ type: "acknowledgement", responseEndPoint: "http://authority-sim.internal:4100/tax/poll" });
    } finally {
      await behindProxy.close();
    }
  });

  it("never echoes the gateway password, in answers or in the received log", async () => {
    const password = "very-secret-password-123";
    const answers = [await postXml(sim.urls.taxSubmission, nilReturn({ password }).xml)];
    answers.push(await postXml(sim.urls.taxSubmission, nilReturn({ password }).xml.replace("<Total>0.00</Total>", "<Total>x</Total>")));
    const refused = await refusedAtPoll(alteredAndResigned(nilReturn({ password }).xml, "<Total>0.00</Total>", "<Total>x</Total>"));
    for (const answer of answers) expect(answer.text).not.toContain(password);
    expect(JSON.stringify(refused)).not.toContain(password);
    const log = await (await fetch(`${sim.urls.control}/received?target=tax`)).text();
    expect(log).not.toContain(password);
  });
});
