import {
  buildCt600DataRequest,
  buildCt600DeleteMessage,
  buildCt600PollMessage,
  parseCt600DataResponse,
  parseCt600Response,
  parseGovTalkTimeStamp,
  type Ct600DataList,
} from "@dormant/govtalk";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetSimContext } from "../context.ts";
import type { SimServer } from "../server.ts";
import { nilReturn } from "../test-support/tax-messages.ts";
import { control, postXml, startTestSim } from "../testing/test-sim.ts";

let sim: SimServer;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(() => sim.close());
beforeEach(() => resetSimContext(sim.context));

/** A submission as the tax submitter sends it: with a 32-hex TransactionID in MessageDetails (header only: the IRmark is unchanged). */
function withTransactionId(xml: string, transactionId: string): string {
  const tagged = xml.replace("<CorrelationID/>", `<TransactionID>${transactionId}</TransactionID><CorrelationID/>`);
  if (tagged === xml) throw new Error("no CorrelationID to put the TransactionID before");
  return tagged;
}

async function submit(xml: string): Promise<string> {
  const answer = parseCt600Response((await postXml(sim.urls.taxSubmission, xml)).text);
  if (answer.type !== "acknowledgement") throw new Error(`expected an acknowledgement, got ${JSON.stringify(answer)}`);
  return answer.correlationId;
}

async function list(input: Partial<Parameters<typeof buildCt600DataRequest>[0]> = {}, url = sim.urls.taxSubmission) {
  const { xml } = buildCt600DataRequest({ senderId: "GGUSER01", password: "correct horse", gatewayTest: true, ...input });
  return parseCt600DataResponse((await postXml(url, xml)).text);
}

async function listed(input: Partial<Parameters<typeof buildCt600DataRequest>[0]> = {}, url?: string): Promise<Ct600DataList> {
  const answer = await list(input, url);
  if (answer.type !== "list") throw new Error(`expected a list, got ${JSON.stringify(answer)}`);
  return answer;
}

const TX1 = "0123456789ABCDEF0123456789ABCDEF";
const TX2 = "FEDCBA9876543210FEDCBA9876543210";

describe("DATA_REQUEST: the sender's submissions", () => {
  it("lists the sender's submissions, oldest first, with correlation ID, TransactionID, time stamp and status; not another sender's", async () => {
    sim.context.timing.update({ outcomeDelayMs: 1_500 });
    const before = Date.now() - 1_000;
    const first = await submit(withTransactionId(nilReturn().xml, TX1));
    const second = await submit(withTransactionId(nilReturn({ companyNumber: "00000004" }).xml, TX2));
    await submit(nilReturn({ senderId: "OTHERUSER" }).xml);
    const answer = await listed();
    expect(answer.senderId).toBe("GGUSER01");
    expect(answer.records.map((record) => [record.correlationId, record.transactionId, record.status])).toEqual([
      [first, TX1, "SUBMISSION_ACKNOWLEDGE"],
      [second, TX2, "SUBMISSION_ACKNOWLEDGE"],
    ]);
    for (const record of answer.records)
      expect(parseGovTalkTimeStamp(record.timestamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect((await control(sim, "GET", "/received?target=tax&kind=list")).json).toMatchObject({
      items: [{ kind: "list", answer: "response:2" }],
    });

    // Once decided: the accepted one is listed as a response waiting; 00000004 never answers, still acknowledged.
    await waitFor(async () => (await listed()).records[0]?.status === "SUBMISSION_RESPONSE", { timeoutMs: 5_000, intervalMs: 50 });
    expect((await listed()).records[1]?.status).toBe("SUBMISSION_ACKNOWLEDGE");
  });

  it("is routed on the message: the poll endpoint answers it too", async () => {
    const correlationId = await submit(nilReturn().xml);
    expect((await listed({}, sim.urls.taxPoll)).records.map((record) => record.correlationId)).toEqual([correlationId]);
  });

  it("includes a submission whose answer was lost, so the in-doubt part is found instead of sent again", async () => {
    await control(sim, "POST", "/faults", { target: "tax", loseAnswer: "close", loseAnswerCount: 1 });
    await expect(postXml(sim.urls.taxSubmission, withTransactionId(nilReturn().xml, TX1))).rejects.toThrow();
    const [record] = (await listed()).records;
    expect(record).toMatchObject({ transactionId: TX1 });
    // The correlation ID found polls to the outcome as usual.
    const outcome = await waitFor(
      async () => {
        const answer = parseCt600Response(
          (await postXml(sim.urls.taxPoll, buildCt600PollMessage({ correlationId: record?.correlationId ?? "", gatewayTest: true }))).text,
        );
        return answer.type === "acknowledgement" ? undefined : answer;
      },
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    expect(outcome.type).toBe("success");
  });

  it("lists only the window asked for, and no longer lists a deleted submission", async () => {
    const correlationId = await submit(nilReturn().xml);
    expect((await listed({ startTimeStamp: Date.now() + 5_000 })).records).toEqual([]);
    expect((await listed({ endTimeStamp: Date.now() - 5_000 })).records).toEqual([]);
    expect((await listed({ startTimeStamp: Date.now() - 5_000, endTimeStamp: Date.now() })).records).toHaveLength(1);
    const deleted = parseCt600Response(
      (await postXml(sim.urls.taxPoll, buildCt600DeleteMessage({ correlationId, gatewayTest: true }))).text,
    );
    expect(deleted.type).toBe("deleted");
    expect((await listed()).records).toEqual([]);
  });

  it("authenticates the sender as a submission does: refused credentials 1046, MD5 1047, a CorrelationID 1020", async () => {
    await submit(nilReturn().xml);
    for (const input of [{ password: "REFUSED" }, { senderId: "REFUSED" }]) {
      expect(await list(input)).toMatchObject({
        type: "error",
        errors: [{ number: 1046 }],
        classification: { kind: "authentication", retryable: false },
      });
    }
    const { xml } = buildCt600DataRequest({ senderId: "GGUSER01", password: "pw", gatewayTest: true });
    const md5 = parseCt600DataResponse(
      (await postXml(sim.urls.taxSubmission, xml.replace("<Method>clear</Method>", "<Method>MD5</Method>"))).text,
    );
    expect(md5).toMatchObject({ type: "error", errors: [{ number: 1047 }] });
    const withCorrelation = parseCt600DataResponse(
      (await postXml(sim.urls.taxSubmission, xml.replace("<CorrelationID/>", "<CorrelationID>ABC</CorrelationID>"))).text,
    );
    expect(withCorrelation).toMatchObject({ type: "error", errors: [{ number: 1020 }] });
    const otherClass = parseCt600DataResponse((await postXml(sim.urls.taxSubmission, xml.replace("HMRC-CT-CT600", "HMRC-VAT-DEC"))).text);
    expect(otherClass).toMatchObject({ type: "error", errors: [{ number: 1001 }] });
  });

  it("the received log keeps the request with its password masked", async () => {
    await list({ password: "sekrit value" });
    const { items } = (await control(sim, "GET", "/received?target=tax&kind=list&body=true")).json as { items: { body: string }[] };
    expect(items[0]?.body).toContain("<Value>********</Value>");
    expect(items[0]?.body).not.toContain("sekrit");
  });
});
