import { AppError } from "@dormant/contracts";
import { runWithRequestContext } from "@dormant/service-kit";
import { recordSpansInMemory } from "@dormant/service-kit/tracing";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RpcNoServerError, RpcTimeoutError } from "./errors.ts";
import { busTestContext, type BusTestContext, type TestBus, testRpc } from "./test-support/fixture.ts";
import { traceHeadersOf, traceIdOf } from "./trace-context.ts";
import { rpcClient } from "./typed-rpc-client.ts";

const spans = recordSpansInMemory("bus-test");

let t: BusTestContext;
beforeAll(async () => {
  t = await busTestContext("bus-rpc");
});
afterAll(async () => {
  await t.teardown();
});
afterEach(async () => {
  await t.closeBuses();
});

/** A server whose pricing handler does what the request's sku asks for. */
async function servePricing(bus: TestBus) {
  return bus.rpcServe("pricing.rpc", {
    "pricing.quote": async (request, context) => {
      if (request.sku === "out-of-stock")
        throw new AppError("VALIDATION_ERROR", "no stock", { details: [{ field: "sku", message: "no stock" }] });
      if (request.sku === "crash") throw new Error("secret connection string in a stack trace");
      if (request.sku === "slow") await new Promise((r) => setTimeout(r, 700));
      if (request.sku === "wrong-shape") return { totalPence: "ten" } as never;
      return { totalPence: 250 * request.quantity, requestId: context.requestId, traceparent: traceHeadersOf().traceparent };
    },
  });
}

describe("rpc", () => {
  it("answers with the server's result, carrying request id and trace to the server", async () => {
    const server = await t.startBus({ service: "pricing" });
    const client = await t.startBus({ service: "shop" });
    await servePricing(server);
    spans.reset();
    const caller = propagation.extract(ROOT_CONTEXT, { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" });
    const result = await context.with(caller, () =>
      runWithRequestContext({ requestId: "req-rpc-1" }, () => client.rpcCall("pricing.rpc", "pricing.quote", { sku: "tea", quantity: 3 })),
    );
    expect(result.totalPence).toBe(750);
    expect(result.requestId).toBe("req-rpc-1");
    expect(traceIdOf(result.traceparent ?? "")).toBe("0af7651916cd43dd8448eb211c80319c");

    // CLIENT span under the caller's, SERVER span under the CLIENT one, the handler inside it.
    const finished = spans.getFinishedSpans();
    const clientSpan = finished.find((span) => span.kind === SpanKind.CLIENT);
    const serverSpan = finished.find((span) => span.kind === SpanKind.SERVER);
    expect(clientSpan).toMatchObject({ name: "pricing.quote", parentSpanContext: { spanId: "b7ad6b7169203331" } });
    expect(serverSpan).toMatchObject({ name: "pricing.quote", parentSpanContext: { spanId: clientSpan!.spanContext().spanId } });
    expect(serverSpan!.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(result.traceparent?.split("-")[2]).toBe(serverSpan!.spanContext().spanId);
  });

  it("marks both spans of a call the server failed as errors", async () => {
    const server = await t.startBus();
    const client = await t.startBus();
    await servePricing(server);
    spans.reset();
    await expect(client.rpcCall("pricing.rpc", "pricing.quote", { sku: "out-of-stock", quantity: 1 })).rejects.toBeInstanceOf(AppError);
    const finished = spans.getFinishedSpans().filter((span) => span.name === "pricing.quote");
    expect(finished.map((span) => span.kind).sort()).toEqual([SpanKind.SERVER, SpanKind.CLIENT].sort());
    for (const span of finished) expect(span.status).toMatchObject({ code: SpanStatusCode.ERROR, message: "no stock" });
  });

  it("rethrows a classified error of the server as that AppError", async () => {
    const server = await t.startBus();
    const client = await t.startBus();
    await servePricing(server);
    const error = await client.rpcCall("pricing.rpc", "pricing.quote", { sku: "out-of-stock", quantity: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "no stock",
      retryable: false,
      details: [{ field: "sku", message: "no stock" }],
    });
  });

  it("hides an unclassified server error behind INTERNAL_ERROR", async () => {
    const server = await t.startBus();
    const client = await t.startBus();
    await servePricing(server);
    const error = await client.rpcCall("pricing.rpc", "pricing.quote", { sku: "crash", quantity: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", message: "internal error" });
  });

  it("refuses a reply that breaks the response schema, and a request that breaks the request schema", async () => {
    const server = await t.startBus();
    const client = await t.startBus();
    await servePricing(server);
    await expect(client.rpcCall("pricing.rpc", "pricing.quote", { sku: "wrong-shape", quantity: 1 })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
      retryable: false,
    });
    // @ts-expect-error quantity must be a positive integer
    await expect(client.rpcCall("pricing.rpc", "pricing.quote", { sku: "tea", quantity: "many" })).rejects.toMatchObject({
      reason: "invalid_message",
    });
  });

  it("rpcClient: calls through the catalog's queue, typed, and translates every failure once", async () => {
    const server = await t.startBus({ service: "pricing" });
    const client = await t.startBus({ service: "shop" });
    await servePricing(server);
    const translated: unknown[] = [];
    const call = rpcClient(client, testRpc, (error) => {
      translated.push(error);
      return new Error(`translated: ${(error as Error).name}`);
    });
    const quote = await call("pricing.quote", { sku: "tea", quantity: 2 });
    expect(quote.totalPence).toBe(500);
    await expect(call("pricing.quote", { sku: "out-of-stock", quantity: 1 })).rejects.toThrow("translated: AppError");
    await expect(call("nobody.ping", {}, { timeoutMs: 5000 })).rejects.toThrow("translated: RpcNoServerError");
    expect(translated[0]).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(translated[1]).toBeInstanceOf(RpcNoServerError);
    // Without a translation, errors come as the bus threw them.
    await expect(rpcClient(client, testRpc)("nobody.ping", {})).rejects.toBeInstanceOf(RpcNoServerError);
  });

  it("times out with RpcTimeoutError when the server is too slow", async () => {
    const server = await t.startBus();
    const client = await t.startBus();
    await servePricing(server);
    const started = Date.now();
    const error = await client
      .rpcCall("pricing.rpc", "pricing.quote", { sku: "slow", quantity: 1 }, { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcTimeoutError);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true, reason: "rpc_timeout" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("fails fast with RpcNoServerError when nobody serves the queue", async () => {
    const client = await t.startBus();
    const started = Date.now();
    const error = await client.rpcCall("nobody.rpc", "nobody.ping", {}, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcNoServerError);
    expect(error).toMatchObject({ retryable: true, reason: "rpc_no_server" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("fails fast again once the last server has stopped (its queue goes with it)", async () => {
    const server = await t.startBus();
    const client = await t.startBus();
    const serving = await servePricing(server);
    await expect(client.rpcCall("pricing.rpc", "pricing.quote", { sku: "tea", quantity: 1 })).resolves.toMatchObject({ totalPence: 250 });
    await serving.stop();
    await expect(client.rpcCall("pricing.rpc", "pricing.quote", { sku: "tea", quantity: 1 })).rejects.toBeInstanceOf(RpcNoServerError);
  });
});
