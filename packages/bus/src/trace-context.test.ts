import { Traceparent } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { childTraceparent, traceIdOf } from "./trace-context.ts";

describe("trace context", () => {
  const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  it("continues the parent's trace with a new parent-id and the same flags", () => {
    const child = childTraceparent(parent);
    expect(Traceparent.parse(child)).toBe(child);
    expect(traceIdOf(child)).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(child.split("-")[2]).not.toBe("00f067aa0ba902b7");
    expect(child.endsWith("-01")).toBe(true);
  });

  it("starts a new sampled trace without a parent or with an invalid one", () => {
    for (const start of [
      childTraceparent(undefined),
      childTraceparent("garbage"),
      childTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
    ]) {
      expect(Traceparent.safeParse(start).success).toBe(true);
      expect(traceIdOf(start)).not.toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    }
  });
});
