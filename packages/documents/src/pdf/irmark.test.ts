import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { irmarkBase32, isIrmark } from "./irmark.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const successResponse = readFileSync(path.resolve(repoRoot, "../shared/testdata/hmrc/tpvs-success-response.xml"), "utf8");

describe("irmarkBase32", () => {
  it("gives the base32 form the tax authority's receipt quotes for the IRmark it signed", () => {
    const digest = /<dsig:DigestValue>([^<]+)<\/dsig:DigestValue>/.exec(successResponse)?.[1] ?? "";
    const quoted = /The associated IRmark was: ([A-Z2-7]{32})\./.exec(successResponse)?.[1] ?? "";

    expect(digest).toBe("YrgW02ybxWOff7gHrELynhp1gRw=");
    expect(irmarkBase32(digest)).toBe(quoted);
  });

  it("encodes every bit of the digest", () => {
    expect(irmarkBase32(Buffer.alloc(20, 0).toString("base64"))).toBe("A".repeat(32));
    expect(irmarkBase32(Buffer.alloc(20, 0xff).toString("base64"))).toBe("7".repeat(32));
  });

  it("accepts only the base64 of a 20-byte digest", () => {
    expect(isIrmark("YrgW02ybxWOff7gHrELynhp1gRw=")).toBe(true);
    expect(isIrmark("YrgW02ybxWOff7gHrELynhp1gRw")).toBe(false);
    expect(isIrmark(Buffer.alloc(32).toString("base64"))).toBe(false);
    expect(isIrmark("MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4")).toBe(false);
    expect(() => irmarkBase32("not an irmark")).toThrow(RangeError);
  });
});
