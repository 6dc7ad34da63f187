import { AppError } from "@dormant/contracts";
import { rejectionOf } from "@dormant/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { registryHarness, type RegistryHarness } from "./test-support/registry-harness.ts";

let t: RegistryHarness;
beforeAll(async () => {
  t = await registryHarness("registry-in-doubt");
});
afterAll(() => t.teardown());
afterEach(async () => {
  await t.control("DELETE", "/faults");
});

const resolve = (request: { filing_id: string; submission_number: string; company: { number: string } }) =>
  t.filingBus.rpcCall("registry.submit", "registry.resolve_accounts", {
    filing_id: request.filing_id,
    submission_number: request.submission_number,
    company_number: request.company.number,
  });

describe("registry.resolve_accounts: the filing service asks what became of accounts in doubt", () => {
  it("accounts whose answer was lost are found at the registry by their number, polled and accepted, never sent again", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1000" });
    await t.control("POST", "/faults", { target: "registry", slowMs: 2_500 });
    const request = t.request({ companyNumber: "50000021" });
    expect(await rejectionOf(t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request), AppError)).toMatchObject({
      code: "REGISTRY_UNAVAILABLE",
    });
    await t.control("DELETE", "/faults");
    // Too early to believe the registry (IN_DOUBT_SETTLE_SECONDS is 1 here): still in doubt.
    expect(await resolve(request)).toMatchObject({ state: "in_doubt", retry_after_seconds: expect.any(Number) });
    await new Promise((resolve) => setTimeout(resolve, 2_600));
    expect(await resolve(request)).toMatchObject({ state: "acknowledged", response: { submission_number: request.submission_number } });
    expect(await t.outcome(request.filing_id)).toMatchObject({ outcome: "accepted" });
    // Asked again: the same answer, nothing sent, no second poll chain.
    expect(await resolve(request)).toMatchObject({ state: "acknowledged" });
    expect((await t.received({ company: "50000021", kind: "submit" })).map((e) => e.answer)).toEqual(["acknowledgement"]);
    await worker.close();
  });

  it("accounts never claimed by any attempt are not_submitted, and nothing is sent", async () => {
    const worker = await t.startWorker();
    const request = t.request({ companyNumber: "50000022" });
    expect(await resolve(request)).toMatchObject({ state: "not_submitted" });
    expect(await t.received({ company: "50000022" })).toEqual([]);
    await worker.close();
  });

  it("an attempt that never reached the registry is not_submitted once the registry, asked, does not have it; a later submit sends it", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1000" });
    await t.control("POST", "/faults", { target: "registry", hang: true });
    const request = t.request({ companyNumber: "50000023" });
    await rejectionOf(t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request), AppError);
    await t.control("DELETE", "/faults");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await resolve(request)).toMatchObject({ state: "not_submitted" });
    expect((await t.received({ company: "50000023", kind: "submit" })).filter((e) => e.answer === "acknowledgement")).toHaveLength(0);
    const filingId = request.filing_id;
    expect((await t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request)).submission_number).toBe(
      request.submission_number,
    );
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted" });
    await worker.close();
  });
});
