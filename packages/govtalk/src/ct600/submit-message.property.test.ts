import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { create } from "xmlbuilder2";
import { GovTalkInputError } from "../errors.ts";
import { computeIRmark } from "../irmark/compute.ts";
import { PASSWORD_MASK } from "../secrets/mask-gateway-password.ts";
import { nilReturnInput } from "../test-support/ct600-input.ts";
import { buildCt600SubmitMessage } from "./submit-message.ts";

describe("buildCt600SubmitMessage (properties)", () => {
  it("either refuses the input or carries an IRmark that recomputes, whatever the names and password", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 70 }),
        fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
        fc.string({ maxLength: 40 }),
        (companyName, password, declarantName) => {
          let built: ReturnType<typeof buildCt600SubmitMessage>;
          try {
            built = buildCt600SubmitMessage(nilReturnInput({ companyName, password, declarantName: `${declarantName}xx` }));
          } catch (error) {
            if (error instanceof GovTalkInputError) return true;
            throw error;
          }
          expect(computeIRmark(built.xml)).toEqual(built.irmark);
          return true;
        },
      ),
      { numRuns: 30 },
    );
  });

  it("writes the password as serialising it in the tree would, and the masked message differs only there", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 1, maxLength: 30 }), (password) => {
        const built = buildCt600SubmitMessage(nilReturnInput({ password }));
        const asTheTreeWritesIt = create().ele("Value").txt(password).end({ headless: true });
        const maskedValue = `<Value>${PASSWORD_MASK}</Value>`;
        expect(built.maskedXml.split(maskedValue)).toHaveLength(2);
        expect(built.xml).toBe(built.maskedXml.replace(maskedValue, () => asTheTreeWritesIt));
        expect(computeIRmark(built.maskedXml)).toEqual(built.irmark);
        return true;
      }),
      { numRuns: 100 },
    );
  });
});
