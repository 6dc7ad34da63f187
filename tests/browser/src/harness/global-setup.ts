import { createServer, type Server } from "node:http";
import { type RunningSystem, startSystem } from "@dormant/system-tests/harness";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The base URL of the browser project's system control (see setup below). */
    browserSystemControl: string;
  }
}

/** What a test file learns of the shared system (sharedSystem in shared-system.ts). */
export interface SharedSystemUrls {
  dashboardUrl: string;
  gatewayUrl: string;
  simBaseUrl: string;
}

let server: Server | undefined;
let system: Promise<RunningSystem> | undefined;

/**
 * One whole system with the dashboard for every browser test file, started on the first file's
 * request: a system is seven apps and the dashboard, tens of CPU-seconds to start, and the files
 * isolate themselves by their own accounts (their own agents' emails, keys and companies). The
 * system lives in this (the main) vitest process, so the files, in their workers, reach it through
 * a small HTTP control on 127.0.0.1: GET /system starts it once and answers its URLs, GET
 * /crash-report its crashReport(). It starts lazily because vitest runs every project's global
 * setup before the first test of the run, and the browser tests run last (groupOrder 1).
 */
export async function setup(project: TestProject): Promise<void> {
  server = createServer((request, response) => {
    const answer = async (): Promise<string> => {
      if (request.url === "/system") {
        system ??= startSystem({ label: "browser", dashboard: true });
        const running = await system;
        if (!running.dashboardUrl) throw new Error("the system started without its dashboard");
        const urls: SharedSystemUrls = {
          dashboardUrl: running.dashboardUrl,
          gatewayUrl: running.gatewayUrl,
          simBaseUrl: running.sim.baseUrl,
        };
        return JSON.stringify(urls);
      }
      if (request.url === "/crash-report") return system ? (await system).crashReport() : "";
      throw new Error(`no such control: ${request.url}`);
    };
    answer().then(
      (body) => response.end(body),
      (error: unknown) => {
        response.statusCode = 500;
        response.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
      },
    );
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  const address = listening.address();
  if (address === null || typeof address === "string") throw new Error("the browser system control has no port");
  project.provide("browserSystemControl", `http://127.0.0.1:${address.port}`);
}

export async function teardown(): Promise<void> {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  const running = await system?.catch(() => undefined);
  await running?.stop();
}
