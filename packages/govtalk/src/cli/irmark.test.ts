import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test-support/testdata.ts";

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, "irmark.ts");

/** Runs the CLI as `npm run irmark` does (node with tsx, cwd = repo root, INIT_CWD = caller's dir). */
async function irmark(args: string[], initCwd: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", cli, ...args], {
      cwd: repoRoot,
      env: { ...process.env, INIT_CWD: initCwd },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

describe("irmark CLI", () => {
  it("prints only the computed IRmark of the test vector, resolving FILE from INIT_CWD", async () => {
    const result = await irmark(["../shared/testdata/hmrc/tpvs-accepted-sample.xml"], repoRoot);
    expect(result).toEqual({ code: 0, stdout: "YrgW02ybxWOff7gHrELynhp1gRw=\n", stderr: "" });
  });

  it("computes rather than reads the IRmark", async () => {
    const dir = mkdtempSync(join(tmpdir(), "irmark-cli-"));
    const { readHmrcTestdata } = await import("../test-support/testdata.ts");
    writeFileSync(join(dir, "m.xml"), readHmrcTestdata("tpvs-accepted-sample.xml").replace("YrgW02ybxWOff7gHrELynhp1gRw=", "wrong"));
    const result = await irmark(["m.xml"], dir);
    expect(result.stdout).toBe("YrgW02ybxWOff7gHrELynhp1gRw=\n");
  });

  it("fails with exit code 1 and a message on an unreadable file or invalid XML", async () => {
    const dir = mkdtempSync(join(tmpdir(), "irmark-cli-"));
    writeFileSync(join(dir, "bad.xml"), "<GovTalkMessage><Body>");
    const missing = await irmark(["missing.xml"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain("cannot read");
    const bad = await irmark(["bad.xml"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("malformed XML");
  });

  it("prints usage with exit code 2 without a FILE", async () => {
    const result = await irmark([], repoRoot);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("usage");
  });
});
