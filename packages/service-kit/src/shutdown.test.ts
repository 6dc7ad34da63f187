import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createShutdown } from "./shutdown.ts";

describe("createShutdown", () => {
  it("runs every step once, in order, even when one fails", async () => {
    const order: string[] = [];
    const shutdown = createShutdown(pino({ level: "silent" }), { exit: false });
    shutdown.add("stop http", () => void order.push("http"));
    shutdown.add("drain", async () => {
      await new Promise((r) => setTimeout(r, 10));
      order.push("drain");
      throw new Error("boom");
    });
    shutdown.add("close db", () => void order.push("db"));
    expect(shutdown.stopping).toBe(false);
    await Promise.all([shutdown.run("test"), shutdown.run("again")]);
    expect(shutdown.stopping).toBe(true);
    expect(order).toEqual(["http", "drain", "db"]);
  });
});
