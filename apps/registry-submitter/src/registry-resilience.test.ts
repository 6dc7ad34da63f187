import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError } from "@dormant/contracts";
import { waitFor, rejectionOf } from "@dormant/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newFilingId, registryHarness, type RegistryHarness } from "./test-support/registry-harness.ts";

let t: RegistryHarness;
beforeAll(async () => {
  t = await registryHarness("registry-resilience");
});
afterAll(() => t.teardown());
afterEach(async () => {
  await t.control("DELETE", "/faults");
});

describe("registry submitter: an unreliable registry", () => {
  it("opens the breaker when the registry is down, then fails fast with REGISTRY_UNAVAILABLE and the time to wait", async () => {
    const worker = await t.startWorker({ BREAKER_VOLUME_THRESHOLD: "3", BREAKER_RESET_TIMEOUT_MS: "1500" });
    await t.control("POST", "/faults", { target: "registry", down: true });
    for (let i = 0; i < 3; i += 1) {
      expect(await rejectionOf(t.submit({ companyNumber: "50000001" }), AppError)).toMatchObject({
        code: "REGISTRY_UNAVAILABLE",
        retryable: true,
        retryAfterSeconds: 30,
      });
    }
    const started = Date.now();
    const fast = await rejectionOf(t.submit({ companyNumber: "50000001" }), AppError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(fast).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryable: true });
    expect(fast.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(fast.retryAfterSeconds).toBeLessThanOrEqual(2);
    const metrics = await (await fetch(`http://127.0.0.1:${(worker.ops.address() as AddressInfo).port}/metrics`)).text();
    expect(metrics).toMatch(/authority_breaker_state\{[^}]*breaker="registry-submission"[^}]*\} 2/);
    expect(metrics).toMatch(/authority_breaker_state\{[^}]*breaker="registry-status"[^}]*\} 0/);

    await t.control("DELETE", "/faults");
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const filingId = newFilingId();
    await t.submit({ filingId, companyNumber: "50000001" });
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted" });
    await worker.close();
  });

  it("refused presenter credentials are our configuration's fault: INTERNAL_ERROR, and the breaker stays closed", async () => {
    const worker = await t.startWorker({ BREAKER_VOLUME_THRESHOLD: "2", REGISTRY_PRESENTER_AUTH_CODE: "WRONGCODE" });
    for (let i = 0; i < 3; i += 1) {
      expect(await rejectionOf(t.submit({ companyNumber: "50000002" }), AppError)).toMatchObject({
        code: "INTERNAL_ERROR",
        retryable: false,
      });
    }
    const metrics = await (await fetch(`http://127.0.0.1:${(worker.ops.address() as AddressInfo).port}/metrics`)).text();
    expect(metrics).toMatch(/authority_breaker_state\{[^}]*breaker="registry-submission"[^}]*\} 0/);
    expect((await t.received({ company: "50000002", kind: "submit" })).map((e) => e.answer)).toEqual([
      "error:502",
      "error:502",
      "error:502",
    ]);
    await worker.close();
  });

  it("a submission whose answer was lost is not sent again: the registry, asked for its number, has it; one transmission", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1000" });
    await t.control("POST", "/faults", { target: "registry", slowMs: 2_500 });
    const request = t.request({ companyNumber: "50000003" });
    const call = () => t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request);
    const started = Date.now();
    const timedOut = await rejectionOf(call(), AppError);
    expect(Date.now() - started).toBeLessThan(2_300);
    expect(timedOut).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryable: true });
    await waitFor(async () => (await t.received({ company: "50000003", kind: "submit" })).length === 1, {
      timeoutMs: 5_000,
      what: "the slow submission to land",
    });
    await t.control("DELETE", "/faults");

    const repeated = await call();
    expect(repeated.submission_number).toBe(request.submission_number);
    expect(await t.outcome(request.filing_id)).toMatchObject({ outcome: "accepted" });
    expect((await t.received({ company: "50000003", kind: "submit" })).map((e) => e.answer)).toEqual(["acknowledgement"]);
    await worker.close();
  });

  it("a submission in doubt that never reached the registry is sent once the registry says it does not have it", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1000" });
    // The worker died in the middle of an attempt, before sending anything: its claim is left.
    const request = t.request({ companyNumber: "50000013" });
    await t.control("POST", "/faults", { target: "registry", hang: true });
    const lost = await rejectionOf(t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request), AppError);
    expect(lost).toMatchObject({ code: "REGISTRY_UNAVAILABLE" });
    await t.control("DELETE", "/faults");
    // The hang fault acts before the registry takes anything in: nothing of this filing is there.
    // Until IN_DOUBT_SETTLE_SECONDS passed, a repeat is answered "in doubt" (retryable), as a
    // client retrying after Retry-After would see; then the registry is asked, and it is sent.
    const early = await rejectionOf(t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request), AppError);
    expect(early).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryable: true });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const repeated = await t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request);
    expect(repeated.submission_number).toBe(request.submission_number);
    expect(await t.outcome(request.filing_id)).toMatchObject({ outcome: "accepted" });
    expect((await t.received({ company: "50000013", kind: "submit" })).filter((e) => e.answer === "acknowledgement")).toHaveLength(1);
    await worker.close();
  });

  it("stops gracefully: the status poll in flight finishes, its outcome is published and its message acked", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "5000" });
    await t.control("POST", "/faults", { target: "registry", slowMs: 1_000 });
    let statusAsked = 0;
    const onRequest = (req: IncomingMessage) => {
      if (req.method === "POST" && req.url?.endsWith("/xmlgw/Gateway")) statusAsked += 1;
    };
    t.sim.server.on("request", onRequest);
    const filingId = newFilingId();
    try {
      await t.submit({ filingId, companyNumber: "50000004" });
      // The submission was the first request; the second is the status poll.
      await waitFor(() => statusAsked >= 2, { timeoutMs: 5_000, what: "the status poll to reach the registry" });
      const closing = Date.now();
      await worker.close();
      expect(Date.now() - closing).toBeGreaterThan(500);
    } finally {
      t.sim.server.off("request", onRequest);
    }
    expect(await t.outcome(filingId, 2_000)).toMatchObject({ outcome: "accepted" });
    expect(await t.queueDepth("registry.poll")).toBe(0);
  });
});
