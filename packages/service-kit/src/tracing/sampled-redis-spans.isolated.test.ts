import { createRequire } from "node:module";
import { context, type Context, ROOT_CONTEXT, trace, TraceFlags } from "@opentelemetry/api";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { recordSpansInMemory } from "./in-memory.ts";
import { sampledRedisInstrumentation } from "./sampled-redis-spans.ts";
import { createTestRedisPrefix } from "@dormant/testing";
import type { Redis as RedisClient } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Real ioredis and Redis under the preload's ioredis instrumentation (sampled-redis-spans.ts): a span
// per command inside a sampled trace, none inside an unsampled one (nine requests in ten at the
// default sampling) or outside a trace.
const exporter = recordSpansInMemory("redis-spans-test");
const unregister = registerInstrumentations({ instrumentations: [sampledRedisInstrumentation()] });
// Loaded after the instrumentation, through require, as the preload has it patched.
const { Redis } = createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
const scope = createTestRedisPrefix("redis_spans");
let redis: RedisClient;

beforeAll(() => {
  redis = new Redis(scope.url, { keyPrefix: scope.prefix, maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis?.disconnect();
  unregister();
  await scope.cleanup();
});

const remoteParent = (flags: TraceFlags): Context =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    traceFlags: flags,
    isRemote: true,
  });

async function redisSpansOf(ctx: Context): Promise<string[]> {
  exporter.reset();
  await context.with(ctx, async () => {
    await redis.set("k", "v");
    expect(await redis.get("k")).toBe("v");
  });
  return exporter.getFinishedSpans().map((span) => span.name);
}

describe("Redis spans under the sampled-only ioredis instrumentation", () => {
  it("makes one span per command inside a sampled trace, a recording span's or a sampled remote parent's", async () => {
    const tracer = trace.getTracer("test");
    const recording = await tracer.startActiveSpan("request", async (span) => {
      const names = await redisSpansOf(context.active());
      span.end();
      return names;
    });
    expect(recording).toEqual(["set", "get"]);
    expect(await redisSpansOf(remoteParent(TraceFlags.SAMPLED))).toEqual(["set", "get"]);
  });

  it("makes none inside an unsampled trace or outside any trace, and the commands still work", async () => {
    expect(await redisSpansOf(remoteParent(TraceFlags.NONE))).toEqual([]);
    expect(await redisSpansOf(ROOT_CONTEXT)).toEqual([]);
  });
});
