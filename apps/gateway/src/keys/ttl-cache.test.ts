import { describe, expect, it } from "vitest";
import { TtlLruCache } from "./ttl-cache.ts";

describe("TtlLruCache", () => {
  it("forgets entries once their TTL has passed", () => {
    let now = 1_000;
    const cache = new TtlLruCache<string>({ maxEntries: 10, ttlMs: 500, now: () => now });
    cache.set("a", "A");
    now += 499;
    expect(cache.get("a")).toBe("A");
    now += 1;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("stays within its bound, evicting the least recently used entry", () => {
    const cache = new TtlLruCache<number>({ maxEntries: 3, ttlMs: 60_000 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("d", 4);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual([1, 3, 4]);
  });

  it("caches null values (known-unknown keys) distinctly from misses", () => {
    const cache = new TtlLruCache<string | null>({ maxEntries: 3, ttlMs: 60_000 });
    cache.set("x", null);
    expect(cache.get("x")).toBeNull();
    expect(cache.get("y")).toBeUndefined();
  });
});
