import { defineProject } from "vitest/config";

export default defineProject({
  // Workers come from the root config (one setting for every project of the suite).
  test: {
    name: "ops",
    include: ["src/**/*.test.ts"],
    exclude: ["src/**/*.isolated.test.ts"],
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
