import { AppError } from "@dormant/contracts";
import { createTestVhost, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingServiceStandIn, type FilingServiceStandIn } from "../test-support/filing-service-stand-in.ts";
import { brokerWhere, withFilingService } from "./filing-service.ts";

// The admin CLI's client of filing.list_final, over a real RabbitMQ vhost: pages, and a clear
// error when the filing service does not answer.
describe("the filing service as reconcile calls it", () => {
  let vhost: TestVhost;
  let empty: TestVhost;
  let filingService: FilingServiceStandIn;
  const window = { since: "2025-01-01T00:00:00.000Z", until: "2025-02-01T00:00:00.000Z" };

  beforeAll(async () => {
    [vhost, empty] = await Promise.all([createTestVhost("bill_filing_client"), createTestVhost("bill_filing_nobody")]);
    filingService = await startFilingServiceStandIn(vhost.url);
    filingService.filings.push({
      filing_id: "fil_c1",
      account_id: "acc_c",
      status: "accepted",
      fee_pence: 2000,
      finalized_at: "2025-01-05T00:00:00.000Z",
    });
  });
  afterAll(async () => {
    await filingService?.stop();
    await Promise.all([vhost?.delete(), empty?.delete()]);
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail("it answered"),
      (error: unknown) => error as AppError,
    );

  it("asks for pages over the bus", async () => {
    expect(await withFilingService(vhost.url, (listFinal) => listFinal(window))).toEqual({
      filings: [
        { filing_id: "fil_c1", account_id: "acc_c", status: "accepted", fee_pence: 2000, finalized_at: "2025-01-05T00:00:00.000Z" },
      ],
    });
    expect(filingService.requests.at(-1)).toEqual({ ...window, limit: 1000 });
  });

  it("says the filing service did not answer in time, and where it asked (without credentials)", async () => {
    filingService.delayMs = 1500;
    try {
      const error = await failure(withFilingService(vhost.url, (listFinal) => listFinal(window), { timeoutMs: 300 }));
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(error.message).toBe(
        `the filing service did not answer filing.list_final within 0.3 s on ${brokerWhere(vhost.url)}: is it running and well?`,
      );
      expect(error.message).not.toContain("guest:guest");
    } finally {
      filingService.delayMs = 0;
    }
  });

  it("says nothing serves filing.rpc when the filing service is not running on that broker and vhost", async () => {
    const error = await failure(withFilingService(empty.url, (listFinal) => listFinal(window)));
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(error.message).toBe(
      `nothing serves filing.rpc on ${brokerWhere(empty.url)}: the filing service is not running there (check AMQP_URL)`,
    );
  });

  it("says the broker cannot be reached", async () => {
    const error = await failure(withFilingService("amqp://guest:secret@127.0.0.1:1/", (listFinal) => listFinal(window)));
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(error.message).toMatch(/^cannot connect to RabbitMQ at amqp:\/\/127\.0\.0\.1:1\/ \(AMQP_URL\): /);
    expect(error.message).not.toContain("secret");
  });

  it("shows a broker without its credentials", () => {
    expect(brokerWhere("amqp://guest:guest@127.0.0.1:5672")).toBe("amqp://127.0.0.1:5672/");
    expect(brokerWhere("amqps://user:pw@mq.example:5671/dormant%2Dprod?heartbeat=5")).toBe("amqps://mq.example:5671/dormant%2Dprod");
  });
});
