import { describe, expect, it } from "vitest";
import { SubmitTaxPartRequest } from "../index.ts";

/** A tax.submit_part request as the filing service sent it before accounts could be attached. */
const withoutAccounts = {
  filing_id: "fil_abc",
  part_number: 1,
  parts_total: 1,
  company: { number: "00000001", name: "EXAMPLE LTD", utr: "1234567890" },
  period: { start: "2025-04-01", end: "2026-03-31" },
  declarant: { name: "Jane Doe", status: "Director" },
  credentials: { alg: "A256GCM", kid: "k1", iv: "AAAAAAAAAAAAAAAA", tag: "AAAAAAAAAAAAAAAAAAAAAA==", ciphertext: "AAAA" },
};
const accounts = { ixbrl_base64: Buffer.from("<html/>").toString("base64"), covers: "this-period", filename: "00000001-20260331.xhtml" };

describe("tax.submit_part with the accounts attached", () => {
  it("still accepts a request without accounts (the dormant reason form; requests queued before the field existed)", () => {
    const parsed = SubmitTaxPartRequest.parse(withoutAccounts);
    expect(parsed.accounts).toBeUndefined();
  });

  it("carries the iXBRL, the period the accounts cover and their file name", () => {
    expect(SubmitTaxPartRequest.parse({ ...withoutAccounts, accounts }).accounts).toEqual(accounts);
    const { filename: _, ...withoutName } = accounts;
    expect(SubmitTaxPartRequest.parse({ ...withoutAccounts, accounts: { ...withoutName, covers: "different-period" } }).accounts).toEqual({
      ...withoutName,
      covers: "different-period",
    });
  });

  it("refuses accounts without iXBRL or with another kind of period", () => {
    expect(SubmitTaxPartRequest.safeParse({ ...withoutAccounts, accounts: { ...accounts, ixbrl_base64: "" } }).success).toBe(false);
    expect(SubmitTaxPartRequest.safeParse({ ...withoutAccounts, accounts: { ...accounts, covers: "whole-period" } }).success).toBe(false);
  });
});
