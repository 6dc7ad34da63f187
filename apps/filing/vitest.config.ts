import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "filing",
    include: ["src/**/*.test.ts"],
    // Most files start real infrastructure and wait on it: two at a time fit the 2-core machines.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
