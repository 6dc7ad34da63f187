import { defineProject } from "vitest/config";

// The flow tests run concurrently (each waits on the authority's poll interval, not on the CPU).
export default defineProject({
  test: {
    name: "registry-submitter",
    include: ["src/**/*.test.ts"],
    exclude: ["src/**/*.isolated.test.ts"],
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxConcurrency: 20,
  },
});
