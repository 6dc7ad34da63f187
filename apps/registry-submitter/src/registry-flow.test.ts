import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import { newFilingId, registryHarness, type RegistryHarness } from "./test-support/registry-harness.ts";

let t: RegistryHarness;
beforeAll(async () => {
  t = await registryHarness("registry-flow");
  // Hung requests are held longer than the worker waits, so the worker's own timeout ends them.
  await t.control("PUT", "/timing", { hangMs: 10_000 });
  await t.control("PUT", "/outcomes/40000009", { scenario: "internal-failure" });
  await t.startWorker();
});
afterAll(() => t.teardown());

describe.concurrent("registry submitter: submit, status polls, outcome", () => {
  it("00000001: acknowledged, polled, accepted", async ({ expect }) => {
    const filingId = newFilingId();
    const response = await t.submit({ filingId, companyNumber: "00000001" });
    expect(Date.parse(response.submitted_at)).toBeGreaterThan(Date.now() - 60_000);
    const outcome = await t.outcome(filingId);
    // With when the registry acknowledged them, should the RPC's answer never have reached the filing service (issue 25).
    expect(outcome).toMatchObject({
      outcome: "accepted",
      submission_number: response.submission_number,
      registry_status: "ACCEPT",
      submitted_at: response.submitted_at,
    });
    const exchanges = (await t.received({ company: "00000001" })).filter((e) => e.submissionNumber === response.submission_number);
    expect(exchanges[0]).toMatchObject({ kind: "submit", answer: "acknowledgement" });
    expect(exchanges.at(-1)).toMatchObject({ kind: "status", answer: "ACCEPT" });
  });

  it.for([
    ["00000002", "REGISTRY_REJECTED", "211"],
    ["00000003", "PERIOD_ALREADY_FILED", "262"],
    ["SC000002", "COMPANY_DISSOLVED", "304"],
    ["NI000002", "AUTH_CODE_INVALID", "601"],
    ["99999999", "REGISTRY_REJECTED", "310"],
  ] as const)("%s: rejected with %s (reject code %s)", async ([company, code, rejectCode], { expect }) => {
    const filingId = newFilingId();
    await t.submit({ filingId, companyNumber: company });
    const outcome = await t.outcome(filingId);
    expect(outcome).toMatchObject({ outcome: "rejected", registry_status: "REJECT", error: { code } });
    if (outcome.outcome === "accepted") throw new Error("accepted");
    expect(outcome.rejections.map((r) => r.code)).toEqual([rejectCode]);
    expect(outcome.error.message).toBe(outcome.rejections[0]?.description);
  });

  it("a refused company authentication code: rejected AUTH_CODE_INVALID", async ({ expect }) => {
    const filingId = newFilingId();
    await t.submit({ filingId, companyNumber: "40000001", authCode: "000000" });
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "rejected", error: { code: "AUTH_CODE_INVALID" } });
  });

  it.for(["SC000001", "NI000001", "00000006", "12345678"])("%s: accepted", async (company, { expect }) => {
    const filingId = newFilingId();
    await t.submit({ filingId, companyNumber: company });
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted", registry_status: "ACCEPT" });
  });

  it("00000005: accepted at the first status request", async ({ expect }) => {
    const filingId = newFilingId();
    const { submission_number } = await t.submit({ filingId, companyNumber: "00000005" });
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted" });
    const statuses = (await t.received({ company: "00000005", kind: "status" })).filter((e) => e.submissionNumber === submission_number);
    expect(statuses.map((e) => e.answer)).toEqual(["ACCEPT"]);
  });

  it("INTERNAL_FAILURE at the registry: error AUTHORITY_UNAVAILABLE", async ({ expect }) => {
    const filingId = newFilingId();
    await t.submit({ filingId, companyNumber: "40000009" });
    expect(await t.outcome(filingId)).toMatchObject({
      outcome: "error",
      registry_status: "INTERNAL_FAILURE",
      error: { code: "AUTHORITY_UNAVAILABLE" },
    });
  });

  it("00000004: the registry stops answering; the accounts end in error GATEWAY_TIMEOUT at the give-up time", async ({ expect }) => {
    const filingId = newFilingId();
    const { submitted_at } = await t.submit({ filingId, companyNumber: "00000004" });
    const outcome = await t.outcome(filingId, 18_000);
    const elapsed = Date.now() - Date.parse(submitted_at);
    expect(outcome).toMatchObject({ outcome: "error", registry_status: "TIMEOUT", error: { code: "GATEWAY_TIMEOUT" } });
    // POLL_GIVE_UP_AFTER_SECONDS is 10 here (the shared test world's): not before it, promptly after.
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect(elapsed).toBeLessThan(13_500);
    const statuses = await t.received({ company: "00000004", kind: "status" });
    expect(statuses.length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((e) => e.answer === "no-answer")).toBe(true);
  });

  it("never submits the accounts twice: repeated and concurrent submit RPCs get the first submission", async ({ expect }) => {
    const request = t.request({ companyNumber: "40000002" });
    const call = () => t.filingBus.rpcCall("registry.submit", "registry.submit_accounts", request);
    const [a, b] = await Promise.all([call(), call()]);
    const c = await call();
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await t.outcome(request.filing_id)).toMatchObject({ outcome: "accepted" });
    expect(await t.received({ company: "40000002", kind: "submit" })).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(t.outcomes.filter((o) => o.filing_id === request.filing_id)).toHaveLength(1);
  });

  it("a status poll redelivered after the accounts completed publishes nothing and asks nothing", async ({ expect }) => {
    const filingId = newFilingId();
    const { submission_number } = await t.submit({ filingId, companyNumber: "40000003" });
    await t.outcome(filingId);
    const asked = (await t.received({ company: "40000003", kind: "status" })).length;
    const command = {
      filing_id: filingId,
      submission_number,
      company_number: "40000003",
      poll_interval_seconds: 1,
      give_up_at: new Date(Date.now() + 60_000).toISOString(),
      poll_number: 1,
    };
    await t.filingBus.publish("registry.poll_status", command);
    await t.filingBus.publish("registry.poll_status", command);
    await waitFor(async () => (await t.queueDepth("registry.poll")) === 0, { what: "the duplicates to be consumed" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.outcomes.filter((o) => o.filing_id === filingId)).toHaveLength(1);
    expect(await t.received({ company: "40000003", kind: "status" })).toHaveLength(asked);
  });

  it("refuses credentials sealed for another filing", async ({ expect }) => {
    const request = t.request({ companyNumber: "40000004" });
    const other = t.request({ companyNumber: "40000004" });
    const error = await t.filingBus
      .rpcCall("registry.submit", "registry.submit_accounts", { ...request, credentials: other.credentials })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", retryable: false });
    expect(await t.received({ company: "40000004" })).toEqual([]);
  });
});
