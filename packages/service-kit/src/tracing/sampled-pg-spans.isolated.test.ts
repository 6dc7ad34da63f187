import { createRequire } from "node:module";
import { context, type Context, ROOT_CONTEXT, trace, TraceFlags } from "@opentelemetry/api";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import type { Pool as PgPool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordSpansInMemory } from "./in-memory.ts";
import { sampledPgInstrumentation } from "./sampled-pg-spans.ts";

// Real pg and PostgreSQL under the preload's pg instrumentation (sampled-pg-spans.ts): spans for
// statements (and a pool's connect) inside a sampled trace, none inside an unsampled one (nine
// messages in ten at the default sampling) or outside a trace.
const exporter = recordSpansInMemory("pg-spans-test");
const unregister = registerInstrumentations({ instrumentations: [sampledPgInstrumentation()] });
// Loaded after the instrumentation, through require, as the preload has it patched.
const { Pool } = createRequire(import.meta.url)("pg") as typeof import("pg");
let pool: PgPool;

beforeAll(async () => {
  // Imported here, not above: @dormant/testing loads pg, which must be loaded patched first.
  const { testInfra } = await import("@dormant/testing");
  pool = new Pool({ connectionString: testInfra.postgresAdminUrl, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  unregister();
});

const remoteParent = (flags: TraceFlags): Context =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    traceFlags: flags,
    isRemote: true,
  });

/** The spans made by a pool query and a checked-out client's query within `ctx`. */
async function pgSpansOf(ctx: Context): Promise<string[]> {
  exporter.reset();
  await context.with(ctx, async () => {
    expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    const client = await pool.connect();
    try {
      expect((await client.query<{ two: number }>("SELECT $1::int AS two", [2])).rows).toEqual([{ two: 2 }]);
    } finally {
      client.release();
    }
  });
  return exporter
    .getFinishedSpans()
    .map((span) => span.name)
    .sort();
}

describe("PostgreSQL spans under the sampled-only pg instrumentation", () => {
  it("makes the statements' and the pool's connect spans inside a sampled trace, a recording span's or a sampled remote parent's", async () => {
    const tracer = trace.getTracer("test");
    const recording = await tracer.startActiveSpan("request", async (span) => {
      const names = await pgSpansOf(context.active());
      span.end();
      return names;
    });
    expect(recording.filter((name) => name.startsWith("pg.query:"))).toHaveLength(2);
    expect(recording).toContain("pg-pool.connect");
    const remote = await pgSpansOf(remoteParent(TraceFlags.SAMPLED));
    expect(remote.filter((name) => name.startsWith("pg.query:"))).toHaveLength(2);
    expect(remote).toContain("pg-pool.connect");
  });

  it("makes none inside an unsampled trace or outside any trace, and the statements still work", async () => {
    expect(await pgSpansOf(remoteParent(TraceFlags.NONE))).toEqual([]);
    expect(await pgSpansOf(ROOT_CONTEXT)).toEqual([]);
  });
});
