import { AuthorityBreaker, AuthorityUnavailableError, createBreakerMetrics } from "@dormant/authority-client";
import { startTestSim, type SimServer } from "@dormant/authority-sim/testing";
import { buildCt600SubmitMessage, type Ct600DataResponse } from "@dormant/govtalk";
import { createLogger } from "@dormant/service-kit";
import { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pollEndpoint, TaxGateway } from "./tax-gateway.ts";

describe("pollEndpoint", () => {
  const configured = "https://transaction-engine.tax.service.gov.uk/poll";

  it("uses the ResponseEndPoint the authority gave on its own host", () => {
    expect(pollEndpoint("https://transaction-engine.tax.service.gov.uk/poll2", configured)).toBe(
      "https://transaction-engine.tax.service.gov.uk/poll2",
    );
  });

  it("never follows a ResponseEndPoint to another host, and falls back when there is none", () => {
    expect(pollEndpoint("https://elsewhere.example/poll", configured)).toBe(configured);
    expect(pollEndpoint("not a url", configured)).toBe(configured);
    expect(pollEndpoint(undefined, configured)).toBe(configured);
  });
});

describe("TaxGateway.listSubmissions: the DATA_REQUEST, against the simulator", () => {
  let sim: SimServer;
  let breakers: { submission: AuthorityBreaker; poll: AuthorityBreaker };
  let gateway: TaxGateway;
  const logger = createLogger({ service: "tax-gateway-test", level: "silent" });
  const credentials = { senderId: "LISTUSER1", password: "list horse" };

  beforeAll(async () => {
    sim = await startTestSim();
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    await fetch(`${sim.urls.control}/reset`, { method: "POST" });
    const metrics = createBreakerMetrics(new Registry());
    const settings = {
      timeoutMs: 3_000,
      errorThresholdPercentage: 50,
      volumeThreshold: 3,
      rollingWindowMs: 10_000,
      resetTimeoutMs: 60_000,
    };
    breakers = {
      submission: new AuthorityBreaker({ name: "tax-submission", settings, metrics, logger }),
      poll: new AuthorityBreaker({ name: "tax-poll", settings, metrics, logger }),
    };
    gateway = new TaxGateway({ submissionUrl: sim.urls.taxSubmission, pollUrl: sim.urls.taxPoll, gatewayTest: true, breakers });
  });

  afterEach(() => {
    breakers.submission.shutdown();
    breakers.poll.shutdown();
  });

  const faults = (body: unknown) =>
    fetch(`${sim.urls.control}/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  /** A part as the submitter sends it, with a TransactionID in MessageDetails (header only: same IRmark). */
  async function submitPart(transactionId: string, senderId = credentials.senderId): Promise<string> {
    const { xml } = buildCt600SubmitMessage({
      utr: "8596148860",
      companyName: "Lovelace Engines Limited",
      companyNumber: "00000001",
      periodStart: "2025-04-01",
      periodEnd: "2026-03-31",
      declarantName: "Augusta Ada Lovelace",
      declarantStatus: "Director",
      vendorId: "1234",
      productName: "p",
      productVersion: "1",
      gatewayTest: true,
      senderId,
      password: credentials.password,
    });
    const tagged = xml.includes("<TransactionID>")
      ? xml
      : xml.replace("<CorrelationID/>", `<TransactionID>${transactionId}</TransactionID><CorrelationID/>`);
    const answer = await gateway.submit(tagged);
    if (answer.type !== "acknowledgement") throw new Error(`not acknowledged: ${answer.type}`);
    return answer.correlationId;
  }

  function records(answer: Ct600DataResponse) {
    if (answer.type !== "list") throw new Error(`expected a list, got ${JSON.stringify(answer)}`);
    return answer.records;
  }

  it("lists the sender's submissions with their CorrelationID and TransactionID; a window narrows it", async () => {
    const first = await submitPart("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1");
    const second = await submitPart("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA2");
    await submitPart("BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB1", "SOMEONEELSE");
    const listed = records(await gateway.listSubmissions(credentials));
    expect(listed.map((record) => [record.correlationId, record.transactionId])).toEqual([
      [first, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1"],
      [second, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA2"],
    ]);
    expect(records(await gateway.listSubmissions(credentials, undefined, { since: Date.now() + 5_000 }))).toEqual([]);
    expect(records(await gateway.listSubmissions(credentials, undefined, { since: Date.now() - 60_000, until: Date.now() }))).toHaveLength(
      2,
    );
  });

  it("finds a submission whose answer was lost", async () => {
    await faults({ target: "tax", loseAnswer: "close", loseAnswerCount: 1 });
    await expect(submitPart("CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC1")).rejects.toThrow(AuthorityUnavailableError);
    expect(records(await gateway.listSubmissions(credentials)).map((record) => record.transactionId)).toEqual([
      "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC1",
    ]);
  });

  it("answers refused credentials as the engine's refusal (1046, authentication), which the breaker does not count", async () => {
    for (let i = 0; i < 4; i += 1) {
      expect(await gateway.listSubmissions({ senderId: "LISTUSER1", password: "REFUSED" })).toMatchObject({
        type: "error",
        errors: [{ number: 1046 }],
        classification: { kind: "authentication", retryable: false },
      });
    }
    expect(breakers.submission.state).toBe("closed");
  });

  it("rejects as unavailable (counted by the breaker) on the engine's system error and on HMRC's edge 403 page", async () => {
    await faults({ target: "tax", errorRate: 1, errorMode: "protocol" });
    await expect(gateway.listSubmissions(credentials)).rejects.toMatchObject({
      name: "AuthorityUnavailableError",
      reason: "authority_error",
    });
    await faults({ target: "tax", errorRate: 0, edge403: true });
    await expect(gateway.listSubmissions(credentials)).rejects.toMatchObject({
      name: "AuthorityUnavailableError",
      reason: "http_status",
      status: 403,
      maybeReceived: false,
    });
    await expect(gateway.listSubmissions(credentials)).rejects.toBeInstanceOf(AuthorityUnavailableError);
    // Three failures of three calls: the submission breaker opened.
    expect(breakers.submission.state).toBe("open");
  });
});
