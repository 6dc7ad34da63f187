import { defineProject } from "vitest/config";

// The manifest checks are quick; the build test compiles and deploys an app (tens of seconds).
export default defineProject({
  test: {
    name: "deploy",
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 240_000,
  },
});
