import { describe, expect, it } from "vitest";
import { BoundedMap } from "./bounded-map.ts";

describe("BoundedMap", () => {
  it("evicts the oldest insertion once full", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3);
    expect(map.size).toBe(2);
    expect(map.has("a")).toBe(false);
    expect([...map.values()]).toEqual([2, 3]);
  });

  it("replacing an existing key evicts nothing", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("a", 10);
    expect(map.get("a")).toBe(10);
    expect(map.get("b")).toBe(2);
  });

  it("refuses a capacity below one", () => {
    expect(() => new BoundedMap(0)).toThrow();
  });
});
