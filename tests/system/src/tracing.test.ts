import { randomBytes } from "node:crypto";
import type { Filing } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ct600Body } from "./harness/companies.ts";
import { OtlpReceiver, type ReceivedSpan, SPAN_KIND } from "./harness/otlp-receiver.ts";
import { APP_NAMES } from "./harness/paths.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";
import { waitForFinal } from "./harness/wait-final.ts";

// Every app exports its spans (OTLP/HTTP, JSON) to a receiver in this process, at the default
// sampling (parentbased_traceidratio 0.1): the agent's sampled traceparent decides for the whole
// trace. One live CT600 submit must leave one trace, with the agent's trace id, from the gateway
// through filing, billing's hold and the tax submitter to the authority's HTTP endpoint, and on
// through the delayed polls to the outcome the filing service applies, and the filing.accepted
// event its outbox relay publishes later, which billing captures.
describe("one trace covers a live submit, gateway to the authority and back", () => {
  const traceId = randomBytes(16).toString("hex");
  const callerSpanId = randomBytes(8).toString("hex");
  let receiver: OtlpReceiver;
  let system: RunningSystem;
  let final: Filing;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    const env = Object.fromEntries(APP_NAMES.map((name) => [name, receiver.exporterEnv()]));
    system = await startSystem({ label: "tracing", logLevel: "info", env });
    const account = await system.createAccount({ balancePence: 10_000 });
    const response = await fetch(`${system.gatewayUrl}/api/v1/filings/ct600`, {
      method: "POST",
      headers: {
        "x-api-key": account.liveKey,
        "content-type": "application/json",
        "idempotency-key": `tracing-${traceId}`,
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: JSON.stringify(ct600Body("00000001", "2026-03-31")),
    });
    const answer = (await response.json()) as { data?: { filing_id: string } };
    if (response.status !== 202 || !answer.data) throw new Error(`submit: ${response.status} ${JSON.stringify(answer)}`);
    final = await waitForFinal(system.client(account.liveKey), answer.data.filing_id, { timeoutMs: 60_000, intervalMs: 500 });
    // The outcome's spans end as it is applied; the exporters send within their 200 ms batches.
    spans = await waitFor(
      () => {
        const trace = receiver.trace(traceId);
        const outcome = trace.some(
          (span) => span.service === "filing" && span.kind === SPAN_KIND.consumer && span.name === "tax.part_outcome",
        );
        const captured = trace.some(
          (span) => span.service === "billing" && span.kind === SPAN_KIND.consumer && span.name === "filing.accepted",
        );
        return outcome && captured ? trace : undefined;
      },
      { timeoutMs: 15_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    spans = receiver.trace(traceId);
  });

  afterAll(async () => {
    const report = system?.crashReport();
    await system?.stop();
    await receiver?.stop();
    if (report) throw new Error(report);
  });

  const one = (where: Partial<ReceivedSpan> & { nameStarts?: string }) => {
    const { nameStarts, ...fields } = where;
    const found = spans.filter(
      (span) =>
        Object.entries(fields).every(([key, value]) => span[key as keyof ReceivedSpan] === value) &&
        (nameStarts === undefined || span.name.startsWith(nameStarts)),
    );
    expect(found, `a span ${JSON.stringify(where)} in ${describeTrace(spans)}`).not.toHaveLength(0);
    return found[0]!;
  };
  const childOf = (child: ReceivedSpan, parent: ReceivedSpan) => expect(child.parentSpanId).toBe(parent.spanId);

  it("is accepted", () => {
    expect(final.status).toBe("accepted");
  });

  it("starts at the gateway under the agent's span and reaches filing, billing's hold and the tax submitter", () => {
    // The gateway makes its own SERVER spans (service-kit's http-server-spans.ts), the other apps' come from the HTTP instrumentation.
    const gateway = one({ service: "gateway", kind: SPAN_KIND.server, scope: "@dormant/service-kit/http-server-spans" });
    expect(gateway.parentSpanId).toBe(callerSpanId);
    expect(gateway.name).toBe("POST /api/v1/filings/ct600");
    expect(gateway.attributes).toMatchObject({ "http.route": "/api/v1/filings/ct600", "http.response.status_code": 202 });

    const submitCall = one({ service: "gateway", kind: SPAN_KIND.client, name: "filing.submit_ct600" });
    const submitServed = one({ service: "filing", kind: SPAN_KIND.server, name: "filing.submit_ct600" });
    childOf(submitServed, submitCall);

    const holdCall = one({ service: "filing", kind: SPAN_KIND.client, name: "billing.hold" });
    const holdServed = one({ service: "billing", kind: SPAN_KIND.server, name: "billing.hold" });
    childOf(holdServed, holdCall);
    one({ service: "billing", scope: "@opentelemetry/instrumentation-pg" });

    const taxCall = one({ service: "filing", kind: SPAN_KIND.client, nameStarts: "tax.submit" });
    const taxServed = one({ service: "tax-submitter", kind: SPAN_KIND.server, name: taxCall.name });
    childOf(taxServed, taxCall);

    one({ service: "gateway", scope: "@opentelemetry/instrumentation-ioredis" });
    one({ service: "filing", scope: "@opentelemetry/instrumentation-pg" });
  });

  it("includes the authority HTTP calls: the submission and, later, the polls", () => {
    const authorityCalls = spans.filter(
      (span) => span.service === "tax-submitter" && span.kind === SPAN_KIND.client && span.scope === "@opentelemetry/instrumentation-http",
    );
    const answered = spans.filter((span) => span.service === "authority-sim" && span.kind === SPAN_KIND.server);
    // The submission, then at least one poll; each call answered by the simulator inside the trace.
    expect(authorityCalls.length, describeTrace(spans)).toBeGreaterThanOrEqual(2);
    for (const call of authorityCalls) expect(answered.some((served) => served.parentSpanId === call.spanId)).toBe(true);

    const poll = one({ service: "tax-submitter", kind: SPAN_KIND.consumer, name: "tax.poll_part" });
    expect(spans.some((span) => authorityCalls.includes(span) && isBelow(span, poll, spans))).toBe(true);
  });

  it("ends with the outcome the filing service applies, in the same trace", () => {
    const outcome = one({ service: "filing", kind: SPAN_KIND.consumer, name: "tax.part_outcome" });
    const published = one({ service: "tax-submitter", kind: SPAN_KIND.producer, name: "tax.part_outcome create" });
    childOf(outcome, published);
    // The event the outbox relay publishes later continues the trace of the change that wrote it.
    const captured = one({ service: "billing", kind: SPAN_KIND.consumer, name: "filing.accepted" });
    expect(isBelow(captured, outcome, spans)).toBe(true);
    // Everything hangs together: each span's parent is in the trace, but the gateway's (the agent's).
    const ids = new Set(spans.map((span) => span.spanId));
    const roots = spans.filter((span) => !span.parentSpanId || !ids.has(span.parentSpanId));
    expect(roots.map((span) => [span.service, span.name, span.parentSpanId])).toEqual([["gateway", roots[0]!.name, callerSpanId]]);
  });

  it("puts the trace id on the log lines of every service the filing went through", () => {
    for (const app of ["gateway", "filing", "billing", "tax-submitter"] as const) {
      const lines = system.apps[app]
        .logTail(400)
        .split("\n")
        .filter((line) => line.includes(`"trace_id":"${traceId}"`));
      expect(lines.length, `${app} log lines with the trace id`).toBeGreaterThan(0);
      expect(lines[0]).toMatch(/"span_id":"[0-9a-f]{16}"/);
    }
  });
});

/** True when `span` is `ancestor` or below it. */
function isBelow(span: ReceivedSpan, ancestor: ReceivedSpan, all: ReceivedSpan[]): boolean {
  const byId = new Map(all.map((s) => [s.spanId, s]));
  for (let at: ReceivedSpan | undefined = span; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) {
    if (at.spanId === ancestor.spanId) return true;
  }
  return false;
}

function describeTrace(spans: ReceivedSpan[]): string {
  return spans.map((span) => `${span.service}:${span.kind}:${span.name}`).join(", ");
}
