import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { type SimServer, startTestSim } from "@dormant/authority-sim/testing";
import { AppError } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderCheckout } from "./provider-client.ts";

const KEY = "provider-client-test-key-0123456789";

/** Every line the client logs, to prove the API key is never among them. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    service: "billing-test",
    level: "debug",
    format: "json",
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  return { logger, lines };
}

// The HTTP client of the payment provider's checkout API against the simulator's stand-in and a
// provider that never answers: answers, refusals and timeouts, always a clear AppError.
describe("createProviderCheckout", () => {
  let sim: SimServer;
  let silent: Server;
  let silentUrl = "";
  beforeAll(async () => {
    sim = await startTestSim({
      paymentProvider: {
        apiKey: KEY,
        webhookUrl: "http://127.0.0.1:9/none",
        webhookSecret: "x".repeat(32),
        webhookTimeoutMs: 500,
        maxSessions: 10,
      },
    });
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await sim?.close(0);
    silent?.closeAllConnections();
    await new Promise((resolve) => silent?.close(resolve));
  });

  const request = { accountId: "acc_client1", amountPence: 1234n, successUrl: "http://localhost/ok", cancelUrl: "http://localhost/no" };

  it("creates a session and answers its id and page", async () => {
    const { logger } = capturingLogger();
    const session = await createProviderCheckout({ url: `${sim.url}/payment-provider/v1`, apiKey: KEY, timeoutMs: 2000 }, request, logger);
    expect(session).toEqual({ id: expect.stringMatching(/^cs_/), url: `${sim.url}/payment-provider/checkout/${session.id}` });
  });

  it("a refused API key, a timeout and an unreachable provider are retryable SERVICE_UNAVAILABLE; the key is never logged", async () => {
    const { logger, lines } = capturingLogger();
    const wrongKey = "a-wrong-key-that-must-not-be-logged";
    const cases: Array<[string, number, RegExp]> = [
      [`${sim.url}/payment-provider/v1`, 2000, /refused billing's credentials/],
      [silentUrl, 300, /did not answer within 300 ms/],
      ["http://127.0.0.1:9", 2000, /could not be reached/],
    ];
    for (const [url, timeoutMs, message] of cases) {
      const error = await createProviderCheckout({ url, apiKey: wrongKey, timeoutMs }, request, logger).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true, message: expect.stringMatching(message) });
    }
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.join("\n")).not.toContain(wrongKey);
  });
});
