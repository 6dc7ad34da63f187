import {
  buildCt600PollMessage,
  hmrcEdgeAccessDeniedPage,
  parseAccountsSubmissionResponse,
  parseCt600Response,
  parseSubmissionStatusResponse,
} from "@dormant/govtalk";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetSimContext } from "../context.ts";
import type { SimServer } from "../server.ts";
import type { ReceivedEntry } from "../state/received-log.ts";
import { accountsSubmission, statusRequest } from "../test-support/registry-messages.ts";
import { nilReturn } from "../test-support/tax-messages.ts";
import { control, postXml, startTestSim } from "../testing/test-sim.ts";

let sim: SimServer;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(() => sim.close());
beforeEach(() => resetSimContext(sim.context));

async function received(query: string): Promise<ReceivedEntry[]> {
  return ((await control(sim, "GET", `/received?${query}`)).json as { items: ReceivedEntry[] }).items;
}

/** Polls a tax submission until its final answer. */
async function taxOutcome(correlationId: string) {
  return waitFor(
    async () => {
      const answer = parseCt600Response(
        (await postXml(sim.urls.taxPoll, buildCt600PollMessage({ correlationId, gatewayTest: true }))).text,
      );
      return answer.type === "acknowledgement" ? undefined : answer;
    },
    { timeoutMs: 5_000, intervalMs: 50, what: "the tax outcome" },
  );
}

describe("loseAnswer: the submission is taken in, its answer lost (in-doubt submissions)", () => {
  it("tax, hold: the client sees no answer; the submission is recorded (answer lost), decided and polled as usual", async () => {
    expect((await control(sim, "POST", "/faults", { target: "tax", loseAnswer: "hold", loseAnswerCount: 1 })).json).toMatchObject({
      target: "tax",
      faults: { loseAnswer: "hold", loseAnswerCount: 1 },
    });
    await expect(postXml(sim.urls.taxSubmission, nilReturn().xml, { signal: AbortSignal.timeout(400) })).rejects.toThrow(/timeout|abort/i);
    const [submit] = await received("target=tax&kind=submit");
    expect(submit).toMatchObject({ kind: "submit", company: "00000001", answer: "acknowledgement", lostAnswer: "hold" });
    expect(submit?.correlationId).toMatch(/^[0-9A-F]{32}$/);
    // The held connection is released once the client gave up.
    await expect.poll(() => sim.context.hanging.count).toBe(0);
    // Decided as usual: the poll with the correlation ID from the log gets the acceptance.
    expect(await taxOutcome(submit?.correlationId ?? "")).toMatchObject({ type: "success", correlationId: submit?.correlationId });
    // Exactly one answer was lost: the fault turned itself off, the next submission is answered.
    expect(((await control(sim, "GET", "/faults")).json as { tax: unknown }).tax).toMatchObject({
      loseAnswer: null,
      loseAnswerCount: null,
    });
    expect(parseCt600Response((await postXml(sim.urls.taxSubmission, nilReturn().xml)).text).type).toBe("acknowledgement");
  });

  it("tax, close: the connection is closed without an answer; polls are never affected", async () => {
    await control(sim, "POST", "/faults", { target: "tax", loseAnswer: "close" });
    const started = Date.now();
    await expect(postXml(sim.urls.taxSubmission, nilReturn().xml)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    const [submit] = await received("target=tax&kind=submit");
    expect(submit).toMatchObject({ answer: "acknowledgement", lostAnswer: "close" });
    // Still on (no count): polls are answered, only submissions lose their answers.
    expect(await taxOutcome(submit?.correlationId ?? "")).toMatchObject({ type: "success" });
    await expect(postXml(sim.urls.taxSubmission, nilReturn().xml)).rejects.toThrow();
    expect(await received("target=tax&kind=submit")).toHaveLength(2);
    const polls = await received("target=tax&kind=poll");
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((poll) => poll.lostAnswer === undefined)).toBe(true);
  });

  it("registry: a FormSubmission taken in without an answer is examined as usual; status requests are answered", async () => {
    await control(sim, "POST", "/faults", { target: "registry", loseAnswer: "close", loseAnswerCount: 1 });
    const message = accountsSubmission("00000001");
    await expect(postXml(sim.urls.registryGateway, message.xml)).rejects.toThrow();
    expect(await received("target=registry&kind=submit")).toMatchObject([
      { submissionNumber: message.submissionNumber, answer: "acknowledgement", lostAnswer: "close" },
    ]);
    const accepted = await waitFor(
      async () => {
        const answer = parseSubmissionStatusResponse(
          (await postXml(sim.urls.registryGateway, statusRequest({ submissionNumber: message.submissionNumber }))).text,
        );
        return answer.type === "status" && answer.statuses[0]?.statusCode === "ACCEPT" ? answer : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 50, what: "ACCEPT" },
    );
    expect(accepted.type).toBe("status");
    // The same submission sent again is the duplicate it is: the registry refuses a reused number.
    const again = parseAccountsSubmissionResponse((await postXml(sim.urls.registryGateway, message.xml)).text);
    expect(again.type).toBe("error");
  });

  it("refuses loseAnswer for the data API, and a count without a mode (400)", async () => {
    expect((await control(sim, "POST", "/faults", { target: "registry-data", loseAnswer: "hold" })).status).toBe(400);
    expect((await control(sim, "POST", "/faults", { target: "tax", loseAnswerCount: 2 })).status).toBe(400);
    expect((await control(sim, "POST", "/faults", { target: "tax", loseAnswer: "drop" })).status).toBe(400);
    expect((await control(sim, "POST", "/faults", { target: "tax", loseAnswer: null })).json).toMatchObject({
      faults: { loseAnswer: null },
    });
  });
});

describe("edge403: HMRC's edge refuses the request with its Access Denied page", () => {
  it("answers HTTP 403 with the real page on both endpoints; nothing reaches the engine", async () => {
    await control(sim, "POST", "/faults", { target: "tax", edge403: true });
    for (const url of [sim.urls.taxSubmission, sim.urls.taxPoll]) {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "text/xml" }, body: nilReturn().xml });
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toBe(hmrcEdgeAccessDeniedPage());
    }
    expect(await received("target=tax")).toEqual([]);
    expect(sim.context.taxSubmissions.size).toBe(0);
    await control(sim, "POST", "/faults", { target: "tax", edge403: false });
    expect(parseCt600Response((await postXml(sim.urls.taxSubmission, nilReturn().xml)).text).type).toBe("acknowledgement");
  });

  it("is for the tax target only (400 for the registry)", async () => {
    expect((await control(sim, "POST", "/faults", { target: "registry", edge403: true })).status).toBe(400);
  });
});
