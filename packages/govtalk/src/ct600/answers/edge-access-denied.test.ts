import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readGovTalkEnvelope } from "../../envelope/read-envelope.ts";
import { hmrcEdgeAccessDeniedPage } from "./edge-access-denied.ts";

describe("HMRC's edge Access Denied page", () => {
  it("is the capture listed in testdata/hmrc/SOURCES.md, byte for byte, and not a GovTalk message", () => {
    const page = hmrcEdgeAccessDeniedPage();
    expect(createHash("sha256").update(page, "utf8").digest("hex")).toBe(
      "07f7e49fa5df7efbf370d52307ef5f5e18a810ab2a2f21c68dc07a3f5b4a4368",
    );
    expect(page).toContain("<TITLE>Access Denied</TITLE>");
    expect(() => readGovTalkEnvelope(page)).toThrow();
  });
});
