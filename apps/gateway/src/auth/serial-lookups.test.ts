import { describe, expect, it } from "vitest";
import { createSerialLookups } from "./serial-lookups.ts";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("serial lookups", () => {
  it("runs one task at a time per subject, in order, and forgets idle subjects", async () => {
    const lookups = createSerialLookups();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task =
      (n: number, fail = false) =>
      async () => {
        running++;
        most = Math.max(most, running);
        await tick(5);
        running--;
        order.push(n);
        if (fail) throw new Error(`task ${n}`);
        return n;
      };
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => lookups.run("addr:a", task(n, n === 2))));
    expect(most).toBe(1);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    await tick(0);
    expect(lookups.size).toBe(0);
  });

  it("lets different subjects run at the same time", async () => {
    const lookups = createSerialLookups();
    let running = 0;
    let most = 0;
    const task = async () => {
      running++;
      most = Math.max(most, running);
      await tick(5);
      running--;
    };
    await Promise.all([lookups.run("addr:a", task), lookups.run("addr:b", task)]);
    expect(most).toBe(2);
  });

  it("refuses a task beyond the one running and `maxWaiting` waiting, and takes tasks again as the line drains", async () => {
    const lookups = createSerialLookups(2);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const accepted = [1, 2, 3].map((n) => lookups.run("addr:a", () => gate.then(() => n)));
    expect(accepted.every((result) => result !== undefined)).toBe(true);
    expect(lookups.run("addr:a", async () => 4)).toBeUndefined();
    expect(await lookups.run("addr:b", async () => 5)).toBe(5);
    release();
    expect(await Promise.all(accepted)).toEqual([1, 2, 3]);
    await tick(0);
    expect(lookups.size).toBe(0);
    expect(await lookups.run("addr:a", async () => 6)).toBe(6);
  });
});
