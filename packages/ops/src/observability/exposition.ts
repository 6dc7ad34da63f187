/** What a /metrics exposition (Prometheus text format) declares: each metric's type, and every sample name. */
export interface Exported {
  types: Map<string, string>;
  samples: Set<string>;
}

export function exportedMetrics(texts: readonly string[]): Exported {
  const types = new Map<string, string>();
  const samples = new Set<string>();
  for (const text of texts) {
    for (const line of text.split("\n")) {
      const declared = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (\S+))?/.exec(line);
      if (declared) {
        if (declared[1] === "TYPE") types.set(declared[2] as string, declared[3] ?? "untyped");
        else if (!types.has(declared[2] as string)) types.set(declared[2] as string, "untyped");
        continue;
      }
      const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{\s]/.exec(line);
      if (sample) samples.add(sample[1] as string);
    }
  }
  return { types, samples };
}

/** Series Prometheus makes itself for every target: not exported by an app, always there. */
export const PROMETHEUS_OWN = new Set(["up", "scrape_duration_seconds", "scrape_samples_scraped", "scrape_series_added"]);

const SUFFIXES: Array<[string, readonly string[]]> = [
  ["_bucket", ["histogram"]],
  ["_sum", ["histogram", "summary"]],
  ["_count", ["histogram", "summary"]],
];

/**
 * Whether a name a query uses is there: declared or sampled, a histogram's `_bucket`/`_sum`/
 * `_count` of a declared histogram (or a summary's `_sum`/`_count`; a labelled histogram with no
 * observation yet has no samples), or Prometheus's own.
 */
export function isExported(name: string, exported: Exported): boolean {
  if (exported.types.has(name) || exported.samples.has(name) || PROMETHEUS_OWN.has(name)) return true;
  return SUFFIXES.some(
    ([suffix, kinds]) => name.endsWith(suffix) && kinds.includes(exported.types.get(name.slice(0, -suffix.length)) ?? ""),
  );
}
