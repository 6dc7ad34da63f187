import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { systemTopology } from "./topology.ts";
import { formatDuration } from "./topology/names.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("the system topology", () => {
  it("is described in the README's topology table, entry by entry", () => {
    const names = [...systemTopology.exchanges, ...systemTopology.workQueues, ...systemTopology.rpcQueues].map((entry) => entry.name);
    for (const name of names) expect(readme, name).toContain(`| \`${name}\` |`);
  });

  it("gives every work queue the wait tiers the README lists for it", () => {
    const listed = (ms: number) => formatDuration(ms).replace(/(\d+)(ms|s|m|h)$/, (_, n: string, unit: string) => `${n} ${unit === "m" ? "min" : unit}`);
    for (const queue of systemTopology.workQueues) {
      const tiers = queue.waitTiersMs.map(listed).join(", ");
      expect(readme, queue.name).toContain(tiers);
    }
  });
});
