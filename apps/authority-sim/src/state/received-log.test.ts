import { describe, expect, it } from "vitest";
import { ReceivedLog } from "./received-log.ts";

describe("ReceivedLog", () => {
  it("filters by target, company and kind, oldest first", () => {
    const log = new ReceivedLog(10);
    log.record({ target: "tax", kind: "submit", company: "00000001", answer: "acknowledgement" });
    log.record({ target: "registry", kind: "submit", company: "00000001", answer: "acknowledgement" });
    log.record({ target: "tax", kind: "poll", company: "00000001", answer: "response" });
    log.record({ target: "tax", kind: "submit", company: "00000002", answer: "acknowledgement" });
    expect(log.list({ target: "tax", company: "00000001" }).map((e) => e.kind)).toEqual(["submit", "poll"]);
    expect(log.list({ kind: "submit" })).toHaveLength(3);
    expect(log.list({ limit: 1 })[0]?.company).toBe("00000002");
  });

  it("keeps only the most recent entries", () => {
    const log = new ReceivedLog(3);
    for (let i = 0; i < 5; i++) log.record({ target: "tax", kind: "poll", answer: String(i) });
    expect(log.list().map((e) => e.answer)).toEqual(["2", "3", "4"]);
    expect(log.list()[0]?.seq).toBe(3);
  });
});
