import { spawn } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";
import { buildCt600PollMessage } from "@dormant/govtalk";
import { getFreePort, waitFor } from "@dormant/testing";
import { describe, expect, it } from "vitest";
import { nilReturn } from "./test-support/tax-messages.ts";
import { postXml } from "./testing/test-sim.ts";

const appDir = resolve(import.meta.dirname, "..");

describe("main (npm start entry point)", () => {
  it("boots from the environment, logs its base URLs, and stops gracefully on SIGTERM even with hung requests", async () => {
    const port = await getFreePort();
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: appDir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        LOG_FORMAT: "json",
        SIM_PORT: String(port),
        SIM_OUTCOME_DELAY_MS: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${url}/readyz`)).ok, { timeoutMs: 20_000, what: "the simulator to be ready" });
      const started = JSON.parse(output.split("\n").find((line) => line.includes("listening")) ?? "{}") as Record<string, unknown>;
      expect(started).toMatchObject({
        service: "authority-sim",
        tax: `${url}/tax`,
        registryGateway: `${url}/registry/v1-0/xmlgw/Gateway`,
        registryData: `${url}/registry-data`,
        control: `${url}/_control`,
      });

      const ack = await postXml(`${url}/tax/submission`, nilReturn({ companyNumber: "00000004" }).xml);
      const correlationId = /<CorrelationID>([0-9A-F]{32})<\/CorrelationID>/.exec(ack.text)?.[1] ?? "";
      expect(correlationId).toMatch(/^[0-9A-F]{32}$/);
      const poll = buildCt600PollMessage({ correlationId, gatewayTest: true });
      const hung = postXml(`${url}/tax/poll`, poll).then(
        () => "answered",
        () => "dropped",
      );
      await waitFor(async () => {
        const received = (await (await fetch(`${url}/_control/received?kind=poll`)).json()) as { count: number };
        return received.count === 1;
      });

      const stoppedAt = Date.now();
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(await hung).toBe("dropped");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
