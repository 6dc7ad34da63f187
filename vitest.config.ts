import { defineConfig } from "vitest/config";

// The whole suite: every app and package is a vitest project with its own config beside it.
// Two workers match the 2-core machines this runs on; tests isolate their own infrastructure.
export default defineConfig({
  test: {
    projects: ["apps/*", "packages/*", "tests/*"],
    maxWorkers: 2,
  },
});
