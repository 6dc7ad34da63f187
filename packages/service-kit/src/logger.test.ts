import { spawn } from "node:child_process";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import { runWithRequestContext } from "./request-context.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe("createLogger", () => {
  it("writes JSON with service, version and the current request id", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: "svc", version: "9.9.9", level: "info", destination });
    runWithRequestContext({ requestId: "5b1f0e7e-0000-4000-8000-000000000000" }, () => logger.info("inside"));
    logger.info("outside");
    expect(lines[0]).toMatchObject({
      service: "svc",
      version: "9.9.9",
      msg: "inside",
      request_id: "5b1f0e7e-0000-4000-8000-000000000000",
      level: "info",
    });
    expect(lines[1]).not.toHaveProperty("request_id");
  });

  it("redacts API keys, gateway passwords, auth codes and credentials wherever they appear", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: "svc", level: "info", destination });
    logger.info(
      {
        req: { headers: { "x-api-key": "api_live_abc_supersecret", authorization: "Basic Zm9v" } },
        body: { credentials: { government_gateway_id: "GW1", government_gateway_password: "hunter2" } },
        command: { company_auth_code: "AB12CD", gatewayPassword: "hunter3" },
        apiKey: "api_test_x_y",
      },
      "request",
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ["supersecret", "hunter2", "hunter3", "AB12CD", "api_test_x_y", "Zm9v"]) expect(text).not.toContain(secret);
    expect(text).toContain("[REDACTED]");
  });
});

describe("createLogger with an output buffer", () => {
  const loggerModule = new URL("./logger.ts", import.meta.url).href;
  /** Runs `body` in a child process with a buffered logger `logger`; its stdout lines and exit. */
  function child(body: string): Promise<{ lines: Record<string, unknown>[]; code: number | null; signal: string | null }> {
    const script = `import { createLogger } from ${JSON.stringify(loggerModule)};
const logger = createLogger({ service: "svc", level: "info", format: "json", outputBuffer: { bytes: 4096, intervalMs: 50 } });
${body}`;
    return new Promise((resolve, reject) => {
      const proc = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      let out = "";
      proc.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
      proc.on("error", reject);
      proc.on("close", (code, signal) =>
        resolve({
          lines: out
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>),
          code,
          signal,
        }),
      );
    });
  }

  it("writes what waits at exit: process.exit and an uncaught exception lose nothing", async () => {
    const exited = await child(`for (let i = 0; i < 3; i++) logger.info({ i }, "line"); process.exit(3);`);
    expect(exited.code).toBe(3);
    expect(exited.lines.map((line) => line.i)).toEqual([0, 1, 2]);
    const crashed = await child(`logger.info("before"); setTimeout(() => { throw new Error("boom"); }, 0);`);
    expect(crashed.code).toBe(1);
    expect(crashed.lines.map((line) => line.msg)).toEqual(["before"]);
  }, 30_000);

  it("writes waiting lines within the interval, so a process killed outright loses at most that", async () => {
    const killed = await child(`logger.info("early"); setTimeout(() => process.kill(process.pid, "SIGKILL"), 500);`);
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.lines.map((line) => line.msg)).toEqual(["early"]);
  }, 30_000);
});
