import { describe, expect, it } from "vitest";
import { decideFilingStatus, decidingSubmission, submissionMayMove, type SubmissionStatus } from "./filing-state.ts";

const ALL: SubmissionStatus[] = ["pending", "submitted", "polling", "accepted", "rejected", "error"];

describe("submission state machine", () => {
  it("moves only forwards and never out of a final status, but for an error the authority's acceptance replaces", () => {
    expect(submissionMayMove("pending", "submitted")).toBe(true);
    expect(submissionMayMove("submitted", "polling")).toBe(true);
    expect(submissionMayMove("pending", "polling")).toBe(true);
    expect(submissionMayMove("pending", "accepted")).toBe(true);
    expect(submissionMayMove("polling", "rejected")).toBe(true);
    expect(submissionMayMove("polling", "submitted")).toBe(false);
    expect(submissionMayMove("polling", "polling")).toBe(false);
    for (const final of ["accepted", "rejected", "error"] as const) {
      for (const to of ALL) expect(submissionMayMove(final, to)).toBe(final === "error" && to === "accepted");
    }
  });
});

describe("filing status from its submissions", () => {
  it.each([
    [["pending"], "pending"],
    [["submitted"], "submitted"],
    [["polling"], "submitted"],
    [["accepted"], "accepted"],
    [["rejected"], "rejected"],
    [["error"], "error"],
    [["submitted", "pending"], "pending"],
    [["polling", "submitted"], "submitted"],
    [["accepted", "polling"], "submitted"],
    [["accepted", "accepted"], "accepted"],
    [["accepted", "rejected"], "rejected"],
    [["rejected", "polling"], "rejected"],
    [["pending", "rejected"], "rejected"],
    [["accepted", "error"], "error"],
    [["error", "error"], "error"],
    [["error", "polling"], "submitted"],
    [["error", "rejected"], "rejected"],
  ] as Array<[SubmissionStatus[], string]>)("%j -> %s", (parts, expected) => {
    expect(decideFilingStatus("submitted", parts)).toBe(expected);
  });

  it("keeps a final filing final whatever its parts say later, except an error whose parts all turn out accepted", () => {
    expect(decideFilingStatus("rejected", ["accepted"])).toBe("rejected");
    expect(decideFilingStatus("accepted", ["rejected"])).toBe("accepted");
    expect(decideFilingStatus("error", ["accepted", "error"])).toBe("error");
    expect(decideFilingStatus("error", ["accepted", "submitted"])).toBe("error");
    expect(decideFilingStatus("error", ["rejected", "accepted"])).toBe("error");
    // A late acceptance: every part accepted after the filing ended error.
    expect(decideFilingStatus("error", ["accepted", "accepted"])).toBe("accepted");
    expect(decideFilingStatus("error", ["accepted"])).toBe("accepted");
  });

  it("takes the error of the first rejected part, else of the first part in error", () => {
    const parts = [
      { n: 1, status: "error" as const },
      { n: 2, status: "rejected" as const },
    ];
    expect(decidingSubmission("rejected", parts)?.n).toBe(2);
    expect(decidingSubmission("error", parts)?.n).toBe(1);
    expect(decidingSubmission("accepted", parts)).toBeUndefined();
  });
});
