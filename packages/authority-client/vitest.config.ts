import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "authority-client",
    include: ["src/**/*.test.ts"],
    exclude: ["src/**/*.isolated.test.ts"],
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
