import { Writable } from "node:stream";
import { createLogger } from "@dormant/service-kit";
import { describe, expect, it, vi } from "vitest";
import { lazyChildLogger } from "./lazy-child-logger.ts";

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ service: "lazy-test", level, destination }), lines };
}

describe("lazyChildLogger", () => {
  it("creates no child for lines at levels that are off", () => {
    const { logger, lines } = capture("info");
    const child = vi.spyOn(logger, "child");
    const log = lazyChildLogger(logger, { filing_id: "f1", poll_number: 2 });
    log.debug({ next_poll_in_ms: 1000 }, "still pending");
    log.trace("nothing");
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("writes what the child would write, creating it once", async () => {
    const { logger, lines } = capture("info");
    const child = vi.spyOn(logger, "child");
    const log = lazyChildLogger(logger, { filing_id: "f1", poll_number: 2 });
    log.info({ outcome: "accepted" }, "outcome published");
    log.warn("second line");
    log.error({ err: new Error("boom") }, "third line");
    expect(child).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toMatchObject([
      { level: "info", filing_id: "f1", poll_number: 2, outcome: "accepted", msg: "outcome published" },
      { level: "warn", filing_id: "f1", poll_number: 2, msg: "second line" },
      { level: "error", filing_id: "f1", err: { message: "boom" }, msg: "third line" },
    ]);
  });

  it("hands anything else to the child (child of the child, level checks)", async () => {
    const { logger, lines } = capture("debug");
    const log = lazyChildLogger(logger, { filing_id: "f2" });
    expect(log.isLevelEnabled("debug")).toBe(true);
    log.child({ attempt: 3 }).debug("nested");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toMatchObject([{ level: "debug", filing_id: "f2", attempt: 3, msg: "nested" }]);
  });
});
