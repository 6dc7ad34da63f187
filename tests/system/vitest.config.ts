import { defineProject } from "vitest/config";

// The whole system as processes, through the gateway. Each file starts its own system (six
// processes), so files run one at a time, and in the root run only after every other project
// (groupOrder 1): they never compete for the two cores with the unit and integration tests.
// The destructive tests (kill -9, broker restart) are another project: vitest.destructive.config.ts.
export default defineProject({
  test: {
    name: "system",
    include: ["src/**/*.test.ts"],
    exclude: ["src/**/*.destructive.test.ts"],
    fileParallelism: false,
    sequence: { groupOrder: 1 },
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
