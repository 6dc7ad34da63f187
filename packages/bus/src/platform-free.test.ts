import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { planTopology } from "./topology/plan.ts";

const srcDir = fileURLToPath(new URL(".", import.meta.url));

/** Every .ts file under src/, as a path relative to it. */
function sourceFiles(dir = srcDir, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name), `${prefix}${entry.name}/`)
      : entry.name.endsWith(".ts")
        ? [`${prefix}${entry.name}`]
        : [],
  );
}

describe("the bus is generic", () => {
  it("names none of the platform's exchanges or queues: it takes the topology as data", () => {
    const platformNames = [
      ...PLATFORM_TOPOLOGY.exchanges.map((e) => e.name),
      ...planTopology(PLATFORM_TOPOLOGY).queues.map((q) => q.name),
      ...PLATFORM_TOPOLOGY.rpcQueues.map((q) => q.name),
    ];
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) => {
      const text = readFileSync(join(srcDir, file), "utf8");
      return platformNames.filter((name) => text.includes(name)).map((name) => `${file}: ${name}`);
    });
    expect(found).toEqual([]);
  });
});
