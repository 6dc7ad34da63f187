import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DormantClient } from "./client.ts";
import { errorEnvelope, ScriptedServer, successEnvelope } from "./test-support/scripted-server.ts";
import { type FilingProgress, FilingWaitTimeoutError, recommendedPollInterval } from "./wait-for-final.ts";

const filing = (status: string, parts?: string[]) => ({
  filing_id: "fil_1",
  type: "ct600",
  status,
  company_number: "00000001",
  ...(parts ? { parts: parts.map((tax_status, i) => ({ part: i + 1, tax_status })) } : {}),
});

describe("waitForFinal against a real HTTP server", () => {
  let server: ScriptedServer;
  let client: DormantClient;
  beforeAll(async () => {
    server = await ScriptedServer.start();
    client = new DormantClient({ apiKey: "api_live_k_s", baseUrl: server.baseUrl, retry: { baseDelayMs: 10 } });
  });
  afterAll(() => server?.close());

  it("polls until a final status, calling onProgress once per change (parts included), through a 503", async () => {
    server.answer(
      { status: 200, body: successEnvelope(filing("submitted", ["submitted", "submitted"])) },
      { status: 200, body: successEnvelope(filing("submitted", ["submitted", "submitted"])) },
      { status: 503, headers: { "retry-after": "0" }, body: errorEnvelope("SERVICE_UNAVAILABLE", "down") },
      { status: 200, body: successEnvelope(filing("submitted", ["accepted", "polling"])) },
      { status: 200, body: successEnvelope(filing("accepted", ["accepted", "accepted"])) },
    );
    const seen: FilingProgress[] = [];
    const final = await client.filings.waitForFinal("fil_1", { timeoutMs: 10_000, pollIntervalMs: 20, onProgress: (p) => seen.push(p) });
    expect(final.status).toBe("accepted");
    expect(server.received.map((r) => r.url)).toEqual(Array(5).fill("/api/v1/filings/fil_1"));
    expect(seen.map((p) => [p.previousStatus, p.status])).toEqual([
      [undefined, "submitted"],
      ["submitted", "submitted"],
      ["submitted", "accepted"],
    ]);
    expect(seen.every((p) => p.filingId === "fil_1" && p.elapsedMs >= 0)).toBe(true);
  });

  it("answers at once when the first poll is final", async () => {
    server.answer({ status: 200, body: successEnvelope(filing("rejected")) });
    expect((await client.filings.waitForFinal("fil_1", { pollIntervalMs: 60_000 })).status).toBe("rejected");
    expect(server.received).toHaveLength(1);
  });

  it("gives up after timeoutMs with the last status seen, never sleeping past the deadline", async () => {
    server.answer({ status: 200, body: successEnvelope(filing("submitted")) });
    const started = Date.now();
    const error = await client.filings.waitForFinal("fil_1", { timeoutMs: 300, pollIntervalMs: 10_000 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(FilingWaitTimeoutError);
    expect(error).toMatchObject({ filingId: "fil_1", timeoutMs: 300, lastSeen: { status: "submitted" } });
    expect(server.received).toHaveLength(2);
  });

  it("stops polling as soon as its signal aborts, rejecting with the signal's reason", async () => {
    server.answer({ status: 200, body: successEnvelope(filing("submitted")) });
    const controller = new AbortController();
    const started = Date.now();
    const waiting = client.filings
      .waitForFinal("fil_1", { timeoutMs: 60_000, pollIntervalMs: 10_000, signal: controller.signal })
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort(new Error("the caller went away"));
    expect(await waiting).toMatchObject({ message: "the caller went away" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.received).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received).toHaveLength(1);
  });

  it("throws the API's error (a 404) rather than waiting", async () => {
    server.answer({ status: 404, body: errorEnvelope("FILING_NOT_FOUND", "Filing not found") });
    await expect(client.filings.waitForFinal("fil_other")).rejects.toMatchObject({ status: 404, code: "FILING_NOT_FOUND" });
  });

  it("follows the API's advice by default: 30 s for 5 minutes, then 5 minutes", () => {
    expect([0, 299_999, 300_000, 3_600_000].map(recommendedPollInterval)).toEqual([30_000, 30_000, 300_000, 300_000]);
  });
});
