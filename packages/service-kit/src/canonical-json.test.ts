import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.ts";

describe("canonical JSON", () => {
  it("writes JSON with keys sorted at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ b: [1, { d: null, c: "x" }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(canonicalJson('x"y')).toBe('"x\\"y"');
  });

  it("leaves undefined properties out and writes undefined as null", () => {
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson({ z: undefined, a: [undefined, 1] })).toBe('{"a":[null,1]}');
    const sparse = [1, 2, 3];
    delete sparse[1];
    expect(canonicalJson(sparse)).toBe("[1,,3]");
  });
});
