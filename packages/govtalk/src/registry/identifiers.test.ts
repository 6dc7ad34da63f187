import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { presenterCredentialHashes, presenterCredentialsMatch } from "./credentials.ts";
import {
  companyTypeForNumber,
  formatSubmissionNumber,
  isSubmissionNumber,
  newTransactionId,
  SUBMISSION_NUMBER_CAPACITY,
  TRANSACTION_ID_PATTERN,
} from "./identifiers.ts";

describe("submission numbers", () => {
  it("formats sequences as 6 base-36 characters", () => {
    expect(formatSubmissionNumber(0)).toBe("000000");
    expect(formatSubmissionNumber(35)).toBe("00000Z");
    expect(formatSubmissionNumber(36)).toBe("000010");
    expect(formatSubmissionNumber(SUBMISSION_NUMBER_CAPACITY - 1)).toBe("ZZZZZZ");
  });

  it("gives distinct valid numbers to distinct sequences", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: SUBMISSION_NUMBER_CAPACITY - 1 }),
        fc.integer({ min: 0, max: SUBMISSION_NUMBER_CAPACITY - 1 }),
        (a, b) => {
          const [x, y] = [formatSubmissionNumber(a), formatSubmissionNumber(b)];
          return isSubmissionNumber(x) && isSubmissionNumber(y) && (a === b) === (x === y);
        },
      ),
    );
  });

  it.each([-1, 1.5, SUBMISSION_NUMBER_CAPACITY, Number.NaN])("refuses the sequence %d", (sequence) => {
    expect(() => formatSubmissionNumber(sequence)).toThrow(RangeError);
  });
});

describe("transaction IDs and company types", () => {
  it("makes 32-digit upper-case hexadecimal transaction IDs", () => {
    const id = newTransactionId();
    expect(id).toMatch(TRANSACTION_ID_PATTERN);
    expect(id).toHaveLength(32);
    expect(newTransactionId()).not.toBe(id);
  });

  it.each([
    ["00000001", "EW"],
    ["SC000001", "SC"],
    ["NI000001", "NI"],
    ["R0000001", "R"],
    ["OC000001", "EW"],
  ])("derives the company type of %s", (number, type) => {
    expect(companyTypeForNumber(number)).toBe(type);
  });
});

describe("presenter credentials", () => {
  const presenter = { presenterId: "00012345678", presenterAuthCode: "ABC12345DEF" };

  it("hashes both with lower-case MD5 hex", () => {
    expect(presenterCredentialHashes({ presenterId: "abc", presenterAuthCode: "" })).toEqual({
      senderId: "900150983cd24fb0d6963f7d28e17f72",
      authenticationValue: "d41d8cd98f00b204e9800998ecf8427e",
    });
  });

  it("matches only the right pair", () => {
    const hashes = presenterCredentialHashes(presenter);
    expect(presenterCredentialsMatch({ senderId: hashes.senderId, authenticationValue: hashes.authenticationValue }, presenter)).toBe(true);
    expect(
      presenterCredentialsMatch({ senderId: hashes.senderId.toUpperCase(), authenticationValue: hashes.authenticationValue }, presenter),
    ).toBe(true);
    expect(presenterCredentialsMatch({ senderId: hashes.senderId, authenticationValue: hashes.senderId }, presenter)).toBe(false);
    expect(
      presenterCredentialsMatch({ senderId: presenter.presenterId, authenticationValue: presenter.presenterAuthCode }, presenter),
    ).toBe(false);
    expect(presenterCredentialsMatch({ senderId: undefined, authenticationValue: undefined }, presenter)).toBe(false);
  });
});
