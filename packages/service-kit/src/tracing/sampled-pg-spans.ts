import { PgInstrumentation, type PgInstrumentationConfig } from "@opentelemetry/instrumentation-pg";
import { inSampledTrace } from "./sampled-redis-spans.ts";

type Patched = (this: unknown, ...args: unknown[]) => unknown;
/** One of the instrumentation's own wrapper makers (`_getClientQueryPatch` and the like, called once when pg is patched). */
type PatchMaker = (this: PgInstrumentation) => (original: Patched) => Patched;

/** The wrapper makers of PgInstrumentation whose wrappers make a span: a query's, a client's connect, a pool's connect. */
const SPAN_PATCHES = ["_getClientQueryPatch", "_getClientConnectPatch", "_getPoolConnectPatch"] as const;

/**
 * The maintained pg instrumentation, making spans only for statements inside a SAMPLED trace,
 * as sampled-redis-spans.ts does for Redis.
 *
 * Stock, with `requireParentSpan`, it makes a span for every statement that has a parent, sampled
 * or not: the statement's operation name parsed, the attributes built and cleaned, a
 * non-recording span started and ended, the callback wrapped and bound to the context, and a
 * checked-out pool client's connect span too, for spans nobody will ever see (an unsampled trace
 * exports nothing). At the default sampling that is nine messages in ten. In the live benchmark
 * (docs/analysis/filing-and-notifier-cpu.md) OpenTelemetry was 8 % of the filing service's main
 * thread and 13 % of the notifier's, most of it these spans (each webhook delivery makes about
 * twenty statements).
 *
 * It wraps the wrappers the instrumentation makes when it patches `Client.prototype.query`,
 * `Client.prototype.connect` and `Pool.prototype.connect`: a call whose active span is recording
 * (or whose parent was sampled) goes through the instrumentation, any other straight to pg.
 * Sampled traces keep every PostgreSQL span as before. Should a new version of the
 * instrumentation no longer have these methods, this is the stock one (and
 * sampled-pg-spans.isolated.test.ts fails, so the upgrade is noticed).
 */
export function sampledPgInstrumentation(config: PgInstrumentationConfig = {}): PgInstrumentation {
  const instrumentation = new PgInstrumentation({ ...config, requireParentSpan: true });
  const patchable = instrumentation as unknown as Partial<Record<(typeof SPAN_PATCHES)[number], PatchMaker>>;
  for (const name of SPAN_PATCHES) {
    const makePatch = patchable[name];
    if (typeof makePatch !== "function") continue;
    patchable[name] = function (this: PgInstrumentation) {
      const patch = makePatch.call(this);
      return (original: Patched) => {
        const traced = patch(original);
        return function (this: unknown, ...args: unknown[]) {
          return inSampledTrace() ? traced.apply(this, args) : original.apply(this, args);
        };
      };
    };
  }
  return instrumentation;
}
