import type { SimConfig } from "../config.ts";
import type { ContextOptions } from "../context.ts";
import { loadConfig } from "../env.ts";
import { startSimServer, type SimServer } from "../server.ts";

/** Tiny timings for tests: outcomes after 100 ms, hung requests dropped after 1 s. */
export function testConfig(overrides: Partial<SimConfig> = {}): SimConfig {
  const base = loadConfig({
    SIM_PORT: "0",
    SIM_HOST: "127.0.0.1",
    SIM_OUTCOME_DELAY_MS: "100",
    SIM_POLL_INTERVAL_SECONDS: "1",
    SIM_HANG_MS: "1000",
  });
  return { ...base, ...overrides };
}

/** A simulator on a free port of 127.0.0.1, in this process. */
export function startTestSim(overrides: Partial<SimConfig> = {}, options: ContextOptions = {}): Promise<SimServer> {
  return startSimServer(testConfig(overrides), options);
}

/** POSTs XML and returns the HTTP status and text. */
export async function postXml(
  url: string,
  xml: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string; contentType: string | null }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "text/xml; charset=utf-8" }, body: xml, ...init });
  return { status: response.status, text: await response.text(), contentType: response.headers.get("content-type") };
}

/** Calls a control endpoint with a JSON body. */
export async function control(sim: SimServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${sim.urls.control}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}
