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
    expect(lines[0]).toMatchObject({ service: "svc", version: "9.9.9", msg: "inside", request_id: "5b1f0e7e-0000-4000-8000-000000000000", level: "info" });
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
