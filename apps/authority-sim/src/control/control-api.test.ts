import { parseCt600Response } from "@dormant/govtalk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetSimContext } from "../context.ts";
import type { SimServer } from "../server.ts";
import { accountsSubmission } from "../test-support/registry-messages.ts";
import { nilReturn } from "../test-support/tax-messages.ts";
import { control, postXml, startTestSim } from "../testing/test-sim.ts";

let sim: SimServer;
let randomValues: number[] = [];
beforeAll(async () => {
  sim = await startTestSim({}, { random: () => randomValues.shift() ?? 0.99 });
});
afterAll(() => sim.close());
beforeEach(() => {
  resetSimContext(sim.context);
  randomValues = [];
});

const submitTax = () => postXml(sim.urls.taxSubmission, nilReturn().xml);

describe("control API: faults", () => {
  it("down: the target answers 503 with Retry-After; other targets are unaffected; DELETE restores", async () => {
    expect((await control(sim, "POST", "/faults", { target: "tax", down: true })).json).toMatchObject({
      target: "tax",
      faults: { down: true },
    });
    const refused = await fetch(sim.urls.taxSubmission, { method: "POST", headers: { "content-type": "text/xml" }, body: nilReturn().xml });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect((await postXml(sim.urls.registryGateway, accountsSubmission("00000001").xml)).status).toBe(200);
    await control(sim, "DELETE", "/faults");
    expect((await submitTax()).status).toBe(200);
    expect(sim.context.received.list({ target: "tax" })).toHaveLength(1);
  });

  it("slowMs: each answer comes that much later", async () => {
    await control(sim, "POST", "/faults", { target: "registry", slowMs: 300 });
    const started = Date.now();
    expect((await postXml(sim.urls.registryGateway, accountsSubmission("00000001").xml)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("a slowed request is still processed after the client gave up (the ambiguous submission)", async () => {
    await control(sim, "POST", "/faults", { target: "registry", slowMs: 300 });
    const message = accountsSubmission("00000001");
    await expect(postXml(sim.urls.registryGateway, message.xml, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sim.context.registrySubmissions.has(message.submissionNumber)).toBe(true);
  });

  it("errorRate: that share of requests gets a system error (tax: GovTalk 1000, retryable; or HTTP 500)", async () => {
    await control(sim, "POST", "/faults", { target: "tax", errorRate: 0.5 });
    randomValues = [0.2, 0.7];
    const failed = parseCt600Response((await submitTax()).text);
    expect(failed.type === "error" && failed.errors[0]?.number).toBe(1000);
    expect(failed.type === "error" && failed.classification).toMatchObject({ kind: "transient", retryable: true });
    expect(parseCt600Response((await submitTax()).text).type).toBe("acknowledgement");

    await control(sim, "POST", "/faults", { target: "tax", errorRate: 1, errorMode: "http" });
    expect((await submitTax()).status).toBe(500);
    await control(sim, "POST", "/faults", { target: "registry", errorRate: 1 });
    expect((await postXml(sim.urls.registryGateway, accountsSubmission("00000001").xml)).status).toBe(500);
  });

  it("hang: no answer until the client gives up; the held request is released", async () => {
    await control(sim, "POST", "/faults", { target: "tax", hang: true });
    await expect(postXml(sim.urls.taxSubmission, nilReturn().xml, { signal: AbortSignal.timeout(200) })).rejects.toThrow(/timeout|abort/i);
    await expect.poll(() => sim.context.hanging.count).toBe(0);
    expect(sim.context.received.list({ target: "tax" })).toHaveLength(0);
  });

  it("reset: the connection is dropped without an answer", async () => {
    await control(sim, "POST", "/faults", { target: "registry-data", reset: true });
    await expect(fetch(`${sim.urls.registryData}/company/00000001`)).rejects.toThrow();
  });

  it("refuses an unknown target or fault field (400)", async () => {
    expect((await control(sim, "POST", "/faults", { target: "bank", down: true })).status).toBe(400);
    expect((await control(sim, "POST", "/faults", { target: "tax", broken: true })).status).toBe(400);
    expect((await control(sim, "POST", "/faults", { target: "tax", errorRate: 2 })).status).toBe(400);
  });

  it("lists the faults in force per target", async () => {
    await control(sim, "POST", "/faults", { target: "tax", slowMs: 10 });
    await control(sim, "POST", "/faults", { target: "tax", errorRate: 0.1 });
    const { json } = await control(sim, "GET", "/faults");
    expect(json).toMatchObject({
      tax: { slowMs: 10, errorRate: 0.1, down: false },
      registry: { slowMs: 0 },
      "registry-data": { down: false },
    });
  });
});

describe("control API: timing, outcomes, received log, reset, config", () => {
  it("changes the timing at run time; a mode brings its preset values", async () => {
    expect((await control(sim, "PUT", "/timing", { outcomeDelayMs: 5, pollIntervalSeconds: 3 })).json).toMatchObject({
      mode: "fast",
      outcomeDelayMs: 5,
      pollIntervalSeconds: 3,
    });
    const ack = parseCt600Response((await submitTax()).text);
    expect(ack.type === "acknowledgement" && ack.pollIntervalSeconds).toBe(3);
    expect((await control(sim, "PUT", "/timing", { mode: "realistic" })).json).toMatchObject({
      mode: "realistic",
      outcomeDelayMs: 240_000,
      pollIntervalSeconds: 10,
    });
    expect((await control(sim, "PUT", "/timing", { hangMs: 1234 })).json).toMatchObject({ hangMs: 1234 });
    expect((await control(sim, "PUT", "/timing", { mode: "slow" })).status).toBe(400);
  });

  it("lists the outcome table and overrides a company's scenario", async () => {
    const { json } = await control(sim, "GET", "/outcomes");
    expect(json).toMatchObject({ table: { "00000004": "gateway-timeout", NI000002: "auth-code-invalid" }, default: "accepted" });
    expect((await control(sim, "PUT", "/outcomes/12345678", { scenario: "already-filed" })).status).toBe(200);
    expect(sim.context.decisionTable.scenarioFor("12345678").name).toBe("already-filed");
    expect((await control(sim, "PUT", "/outcomes/bad", { scenario: "already-filed" })).status).toBe(400);
    expect((await control(sim, "PUT", "/outcomes/12345678", { scenario: "nope" })).status).toBe(400);
    expect((await control(sim, "DELETE", "/outcomes/12345678")).status).toBe(200);
    expect((await control(sim, "DELETE", "/outcomes/12345678")).status).toBe(404);
  });

  it("filters the received log by target, company and kind, with a limit", async () => {
    await submitTax();
    await postXml(sim.urls.registryGateway, accountsSubmission("00000002").xml);
    const all = (await control(sim, "GET", "/received")).json as { count: number };
    expect(all.count).toBe(2);
    const registry = (await control(sim, "GET", "/received?target=registry&company=00000002&kind=submit")).json as {
      items: { company: string }[];
    };
    expect(registry.items.map((i) => i.company)).toEqual(["00000002"]);
    expect(((await control(sim, "GET", "/received?limit=1")).json as { count: number }).count).toBe(1);
    expect((await control(sim, "GET", "/received?target=bank")).status).toBe(400);
  });

  it("reset clears submissions, the log, faults and overrides", async () => {
    await submitTax();
    await control(sim, "POST", "/faults", { target: "registry", down: true });
    await control(sim, "PUT", "/outcomes/12345678", { scenario: "already-filed" });
    expect((await control(sim, "POST", "/reset")).json).toEqual({ reset: true });
    expect(sim.context.taxSubmissions.size).toBe(0);
    expect(sim.context.received.list()).toEqual([]);
    expect(sim.context.faults.get("registry").down).toBe(false);
    expect(sim.context.decisionTable.overrides()).toEqual({});
  });

  it("shows the configuration without the secrets", async () => {
    const { json } = await control(sim, "GET", "/config");
    expect(json).toMatchObject({
      tax: { refusedCredential: "REFUSED", businessRules: "on" },
      registry: { presenterId: "66666666666", presenterAuthCode: "[REDACTED]", refusedCompanyAuthCode: "000000" },
      registryData: { apiKey: "[REDACTED]" },
    });
    expect(JSON.stringify(json)).not.toContain("SIMAUTHCODE");
  });
});

describe("ops endpoints", () => {
  it("serves /healthz, /readyz and /metrics with route templates", async () => {
    expect((await fetch(`${sim.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${sim.url}/readyz`)).status).toBe(200);
    await submitTax();
    const metrics = await (await fetch(`${sim.url}/metrics`)).text();
    expect(metrics).toContain('http_requests_total{method="POST",route="/tax/submission",status="200"');
  });

  it("unknown paths are 404", async () => {
    expect((await fetch(`${sim.url}/nothing`)).status).toBe(404);
  });
});
