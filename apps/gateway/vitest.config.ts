import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "gateway",
    include: ["src/**/*.test.ts"],
    exclude: ["src/**/*.isolated.test.ts"],
    isolate: false,
    globalSetup: ["src/test-support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
