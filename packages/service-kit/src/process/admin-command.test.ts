import { describe, expect, it } from "vitest";
import { ConfigError } from "../env.ts";
import { runAdminCommand, UsageError } from "./admin-command.ts";

function streams() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    streams: {
      stdout: {
        write: (text: string) => {
          out.stdout += text;
          return true;
        },
      },
      stderr: {
        write: (text: string) => {
          out.stderr += text;
          return true;
        },
      },
    },
  };
}

class Refused extends Error {}
const options = { usage: "usage:\n  admin thing --id ID", isExpected: (error: unknown) => error instanceof Refused };

describe("runAdminCommand", () => {
  it("prints the output as one JSON line and exits 0", async () => {
    const { out, streams: s } = streams();
    expect(await runAdminCommand(s, options, async () => ({ output: { id: "a", n: 1 } }))).toBe(0);
    expect(out).toEqual({ stdout: '{"id":"a","n":1}\n', stderr: "" });
  });

  it("prints a failed report and exits 1 with its failure on stderr", async () => {
    const { out, streams: s } = streams();
    expect(await runAdminCommand(s, options, async () => ({ output: { ok: false }, failure: "found problems" }))).toBe(1);
    expect(out).toEqual({ stdout: '{"ok":false}\n', stderr: "admin: found problems\n" });
  });

  it("exits 2 with the usage on a bad invocation", async () => {
    const { out, streams: s } = streams();
    expect(await runAdminCommand(s, options, async () => Promise.reject(new UsageError("--id is required")))).toBe(2);
    expect(out).toEqual({ stdout: "", stderr: "admin: --id is required\nusage:\n  admin thing --id ID\n" });
  });

  it("exits 1 with the message alone for expected failures and configuration errors, 'failed:' for others", async () => {
    const seen: unknown[] = [];
    const withLog = { ...options, onUnexpected: (error: unknown) => seen.push(error) };
    const cases: [Error, string][] = [
      [new Refused("no account acc_1"), "admin: no account acc_1\n"],
      [new ConfigError(["AMQP_URL: required"]), "admin: invalid configuration:\n  - AMQP_URL: required\n"],
      [new Error("connect ECONNREFUSED"), "admin: failed: connect ECONNREFUSED\n"],
    ];
    for (const [error, stderr] of cases) {
      const { out, streams: s } = streams();
      expect(await runAdminCommand(s, withLog, async () => Promise.reject(error))).toBe(1);
      expect(out).toEqual({ stdout: "", stderr });
    }
    expect(seen).toHaveLength(1);
  });
});
