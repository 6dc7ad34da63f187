import { readFileSync } from "node:fs";
import { join } from "node:path";

/** How an app is traced, from its folder's package.json. */
export interface AppTracing {
  /** Its package name without the scope (@dormant/gateway: "gateway"), or the folder's name. */
  service: string;
  /**
   * Who makes the SERVER spans of its incoming HTTP requests: the maintained HTTP instrumentation
   * (and Express's), or the app itself with `traceHttpRequests` (`dormant.tracing.httpServerSpans:
   * "app"`; the gateway, see http-server-spans.ts).
   */
  httpServerSpans: "instrumentation" | "app";
}

interface PackageJson {
  name?: unknown;
  dormant?: { tracing?: { httpServerSpans?: unknown } };
}

export function appTracingOf(appDir: string): AppTracing {
  let pkg: PackageJson = {};
  try {
    pkg = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")) as PackageJson;
  } catch {
    // no package.json: the folder's name, the instrumentations' spans
  }
  const service =
    typeof pkg.name === "string" && pkg.name.length > 0
      ? pkg.name.replace(/^@[^/]+\//, "")
      : (appDir.split(/[\\/]/).filter(Boolean).pop() ?? "service");
  return { service, httpServerSpans: pkg.dormant?.tracing?.httpServerSpans === "app" ? "app" : "instrumentation" };
}
