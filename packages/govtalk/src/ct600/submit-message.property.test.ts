import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GovTalkInputError } from "../errors.ts";
import { computeIRmark } from "../irmark/compute.ts";
import { nilReturnInput } from "../testing/ct600-input.ts";
import { buildCt600SubmitMessage } from "./submit-message.ts";

describe("buildCt600SubmitMessage (properties)", () => {
  it("either refuses the input or carries an IRmark that recomputes, whatever the names and password", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 70 }), fc.string({ unit: "binary", minLength: 1, maxLength: 30 }), fc.string({ maxLength: 40 }), (companyName, password, declarantName) => {
        let built;
        try {
          built = buildCt600SubmitMessage(nilReturnInput({ companyName, password, declarantName: `${declarantName}xx` }));
        } catch (error) {
          if (error instanceof GovTalkInputError) return true;
          throw error;
        }
        expect(computeIRmark(built.xml)).toEqual(built.irmark);
        return true;
      }),
      { numRuns: 30 },
    );
  });
});
