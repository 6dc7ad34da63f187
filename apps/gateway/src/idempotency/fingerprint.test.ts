import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "@dormant/service-kit";
import { requestFingerprint } from "./fingerprint.ts";

describe("request fingerprint", () => {
  it("writes JSON with keys sorted at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson('x"y')).toBe('"x\\"y"');
  });

  it("is the same for the same request whatever the key order, and differs otherwise", () => {
    const secret = "s".repeat(32);
    const base = { method: "POST", path: "/api/v1/filings/ct600" };
    const one = requestFingerprint({ ...base, body: { utr: "1234567890", company_number: "00000001" } }, secret);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint({ ...base, body: { company_number: "00000001", utr: "1234567890" } }, secret)).toBe(one);
    expect(requestFingerprint({ ...base, body: { company_number: "00000001", utr: "1234567891" } }, secret)).not.toBe(one);
    expect(
      requestFingerprint({ ...base, path: "/api/v1/filings/accounts", body: { utr: "1234567890", company_number: "00000001" } }, secret),
    ).not.toBe(one);
    expect(requestFingerprint({ ...base, method: "PUT", body: { utr: "1234567890", company_number: "00000001" } }, secret)).not.toBe(one);
    expect(requestFingerprint({ ...base, body: { utr: "1234567890", company_number: "00000001" } }, "t".repeat(32))).not.toBe(one);
  });
});

/** The first implementation (the filing service's own until they shared one): every sandbox filing id and stored fingerprint was made with it. */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => referenceCanonicalJson(item === undefined ? null : item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${referenceCanonicalJson(item)}`).join(",")}}`;
}

describe("canonical JSON", () => {
  it("is byte for byte the first implementation's, for any JSON value and for what JSON cannot hold", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
        expect(canonicalJson(JSON.parse(JSON.stringify(value)))).toBe(referenceCanonicalJson(JSON.parse(JSON.stringify(value))));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.anything({ withSparseArray: true, withNullPrototype: true, withObjectString: true, withBoxedValues: true }),
        (value) => {
          expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 0, maxKeys: 40 }), (value) => {
        expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
      }),
      { numRuns: 500 },
    );
    // biome-ignore lint/suspicious/noSparseArray: a hole must serialise as null, like undefined
    const sparse = [1, , 3];
    expect(canonicalJson({ z: undefined, a: [undefined, sparse], "": -0, é: "\u2028", A: 1e21 })).toBe(
      referenceCanonicalJson({ z: undefined, a: [undefined, sparse], "": -0, é: "\u2028", A: 1e21 }),
    );
  });
});
