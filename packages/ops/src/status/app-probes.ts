import type { AppTarget } from "./app-targets.ts";
import { samplesOf } from "./prometheus-text.ts";

/** An app's readiness as its /readyz answered. */
export interface AppReadiness {
  name: string;
  url: string;
  /** ready (200), not_ready (503 or another status), unreachable (no answer in time). */
  status: "ready" | "not_ready" | "unreachable";
  /** Each readiness check's answer ("ok" or why not), as /readyz gave it. */
  checks?: Record<string, string>;
  error?: string;
}

export type BreakerStateName = "closed" | "half_open" | "open";

/** An authority breaker of an app, from its `authority_breaker_state` gauge. */
export interface BreakerView {
  app: string;
  breaker: string;
  state: BreakerStateName;
}

const BREAKER_STATES: Record<number, BreakerStateName> = { 0: "closed", 1: "half_open", 2: "open" };
const TIMEOUT_MS = 2_000;

async function get(url: string): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: "application/json, text/plain" } });
}

export async function readReadiness(target: AppTarget): Promise<AppReadiness> {
  try {
    const response = await get(`${target.url}/readyz`);
    const body = (await response.json().catch(() => ({}))) as { checks?: Record<string, string> };
    return {
      name: target.name,
      url: target.url,
      status: response.status === 200 ? "ready" : "not_ready",
      ...(body.checks ? { checks: body.checks } : {}),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { name: target.name, url: target.url, status: "unreachable", error: cause ?? (error as Error).message };
  }
}

/** The app's breakers from its /metrics; none when it has none or does not answer (its readiness says so). */
export async function readBreakers(target: AppTarget): Promise<BreakerView[]> {
  try {
    const response = await get(`${target.url}/metrics`);
    if (!response.ok) return [];
    return samplesOf(await response.text(), "authority_breaker_state").map((sample) => ({
      app: target.name,
      breaker: sample.labels.breaker ?? "",
      state: BREAKER_STATES[sample.value] ?? "open",
    }));
  } catch {
    return [];
  }
}
