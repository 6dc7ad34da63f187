import { describe, expect, it } from "vitest";
import type { GovTalkError } from "../envelope/govtalk-error.ts";
import { classifyGovTalkErrors } from "./classify-errors.ts";

const error = (number: number | null, type: string, text = "x"): GovTalkError => ({
  raisedBy: "Gateway",
  number,
  type,
  text,
  location: "",
});

describe("classifyGovTalkErrors", () => {
  it("lets authentication win over anything reported with it", () => {
    expect(classifyGovTalkErrors([error(3001, "business"), error(1046, "fatal")])).toMatchObject({
      kind: "authentication",
      retryable: false,
      decisive: { number: 1046 },
    });
  });

  it("treats a system failure as transient even next to business errors", () => {
    expect(classifyGovTalkErrors([error(3001, "business"), error(1000, "fatal")])).toMatchObject({ kind: "transient", retryable: true });
  });

  it("falls back on the Type of unknown numbers", () => {
    expect(classifyGovTalkErrors([error(7777, "recoverable")])).toMatchObject({ kind: "transient", retryable: true });
    expect(classifyGovTalkErrors([error(7777, "business")])).toMatchObject({ kind: "business", retryable: false });
    expect(classifyGovTalkErrors([error(null, "fatal")])).toMatchObject({ kind: "protocol", retryable: false });
  });

  it("ignores warnings next to real errors", () => {
    expect(classifyGovTalkErrors([error(1, "warning"), error(3304, "business")])).toMatchObject({
      kind: "business",
      decisive: { number: 3304 },
    });
  });

  it("calls an error answer without errors a protocol failure", () => {
    expect(classifyGovTalkErrors([])).toEqual({
      kind: "protocol",
      retryable: false,
      decisive: undefined,
      summary: "error answer without any error detail",
    });
  });

  it("summarises the decisive error", () => {
    expect(classifyGovTalkErrors([error(1001, "fatal", "Schema failure")]).summary).toBe("1001 Schema failure");
  });
});
